import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';

import { Spinner } from '@/components/ui/states';
import { usePreferences } from '@/features/settings/api/preferences';
import { ApiClientError } from '@/lib/api-client';
import { saveFile } from '@/lib/save-file';

import {
  EXPORT_COLUMNS,
  exportListedPodcasts,
  LISTED_PODCAST_STATES,
  type ExportColumn,
  type ExportFormat,
  type ListedPodcastState,
} from '../api/projects';

/** Exports the project's podcasts as CSV or JSON: column groups and statuses to include. */
/** The columns ticked at first: all but the user's columns not to export, else a short default. */
export function initialExportColumns(columnsToNotExport: readonly string[] | undefined): ExportColumn[] {
  if (!columnsToNotExport) return ['basicInfo', 'website', 'contactDetails'];
  return EXPORT_COLUMNS.map((column) => column.value).filter((column) => !columnsToNotExport.includes(column));
}

export function ProjectExport({ projectId, projectSlug }: { projectId: string; projectSlug: string }) {
  const preferences = usePreferences();
  if (preferences.isPending) return <Spinner label="Loading your export preferences…" />;
  return <ExportForm projectId={projectId} projectSlug={projectSlug} columnsToNotExport={preferences.data?.search?.export?.columnsToNotExport} />;
}

function ExportForm({ projectId, projectSlug, columnsToNotExport }: { projectId: string; projectSlug: string; columnsToNotExport?: string[] }) {
  const [columns, setColumns] = useState<ExportColumn[]>(() => initialExportColumns(columnsToNotExport));
  const [format, setFormat] = useState<ExportFormat>('csv');
  const [states, setStates] = useState<ListedPodcastState[]>([...LISTED_PODCAST_STATES]);
  const [error, setError] = useState<string | null>(null);
  const download = useMutation({
    mutationFn: exportListedPodcasts,
    onSuccess: (blob) => saveFile(blob, `${projectSlug}.${format}`),
    onError: (failure) => setError(failure instanceof ApiClientError ? failure.displayMessage : failure.message),
  });
  function submit(event: FormEvent) {
    event.preventDefault();
    if (columns.length === 0) return setError('Choose at least one column.');
    if (states.length === 0) return setError('Choose at least one status.');
    setError(null);
    download.mutate({ projectId, columns, format, states });
  }
  const toggle = <T,>(list: T[], item: T, on: boolean) => (on ? [...list, item] : list.filter((value) => value !== item));
  return (
    <form className="form card" onSubmit={submit} aria-label="Export podcasts">
      <fieldset className="field">
        <legend>Columns</legend>
        <div className="checkbox-grid">
          {EXPORT_COLUMNS.map((column) => (
            <label key={column.value} className="checkbox">
              <input type="checkbox" checked={columns.includes(column.value)} onChange={(event) => setColumns(toggle(columns, column.value, event.target.checked))} />
              {column.label}
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset className="field">
        <legend>Statuses</legend>
        <div className="checkbox-grid">
          {LISTED_PODCAST_STATES.map((state) => (
            <label key={state} className="checkbox">
              <input type="checkbox" checked={states.includes(state)} onChange={(event) => setStates(toggle(states, state, event.target.checked))} />
              {state}
            </label>
          ))}
        </div>
      </fieldset>
      <label className="field inline">
        <span>Format</span>
        <select value={format} onChange={(event) => setFormat(event.target.value as ExportFormat)}>
          <option value="csv">CSV</option>
          <option value="json">JSON</option>
        </select>
      </label>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {download.isSuccess ? <p role="status">Export downloaded.</p> : null}
      <button type="submit" className="button" disabled={download.isPending}>
        {download.isPending ? 'Exporting…' : 'Export'}
      </button>
    </form>
  );
}
