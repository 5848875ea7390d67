import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';

import { LockIcon } from '@/components/ui/lock-icon';
import { paths } from '@/config/paths';
import { lowestTierExporting, planExports, type PlanTier } from '@/config/plans';
import { UpgradeLink } from '@/components/ui/upgrade-link';
import { activeProjects, useAddPodcastsToProject, useProjects, type BulkAddOutcome } from '@/features/projects/api/projects';
import { downloadRequest, errorText } from '@/lib/api-client';
import type { PodcastHit } from '@/lib/api-types';
import { saveFile } from '@/lib/save-file';


export type HitSelection = {
  selected: ReadonlySet<string>;
  toggle: (podcastId: string, on: boolean) => void;
};

/** The podcast ids ticked among the results; `clear` forgets them (a new search). */
export function useHitSelection() {
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = (podcastId: string, on: boolean) =>
    setSelected((previous) => {
      const next = new Set(previous);
      if (on) next.add(podcastId);
      else next.delete(podcastId);
      return next;
    });
  const setAll = (podcastIds: string[], on: boolean) =>
    setSelected((previous) => {
      const next = new Set(previous);
      for (const id of podcastIds) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });
  return { selected, toggle, setAll, clear: () => setSelected(new Set()) };
}

/** Ticks every podcast shown, every loaded page of results (or none); half-ticked when some are. */
export function SelectAllShown({ hits, selection }: { hits: PodcastHit[]; selection: ReturnType<typeof useHitSelection> }) {
  const ref = useRef<HTMLInputElement>(null);
  const ticked = hits.filter((hit) => selection.selected.has(hit.podcastId)).length;
  const all = hits.length > 0 && ticked === hits.length;
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = ticked > 0 && !all;
  }, [ticked, all]);
  return (
    <label className="checkbox select-all">
      <input
        ref={ref}
        type="checkbox"
        checked={all}
        onChange={(event) => selection.setAll(hits.map((hit) => hit.podcastId), event.target.checked)}
      />
      Select all {hits.length} shown
    </label>
  );
}

/** "Added 2 to Spring pitch · 1 already there · 1 failed (why)". */
export function describeBulkAdd(outcome: BulkAddOutcome, projectName: string): string {
  const parts = [`Added ${outcome.added.length || 'none'} to ${projectName}`];
  if (outcome.alreadyListed.length > 0) parts.push(`${outcome.alreadyListed.length} already there`);
  if (outcome.failed.length > 0) {
    const reasons = [...new Set(outcome.failed.map((failure) => failure.message))].join('; ');
    parts.push(`${outcome.failed.length} failed (${reasons})`);
  }
  return parts.join(' · ');
}

/** The picker of the active projects and the button adding every selected podcast to the chosen one. */
function BulkAddToProject({ count, defaultProjectSlug, pending, onAdd }: { count: number; defaultProjectSlug?: string; pending: boolean; onAdd: (project: { slug: string; name: string }) => void }) {
  const projects = useProjects();
  const [slug, setSlug] = useState(defaultProjectSlug ?? '');
  if (!projects.data) return null;
  const active = activeProjects(projects.data.projects);
  if (active.length === 0) {
    return (
      <span>
        <Link to={paths.listNew.pattern}>Create a project</Link> to add them to.
      </span>
    );
  }
  const chosen = active.find((project) => project.slug === slug) ?? active[0];
  return (
    <>
      <label className="field inline">
        <span>Project</span>
        <select value={chosen.slug} onChange={(event) => setSlug(event.target.value)}>
          {active.map((project) => (
            <option key={project.projectId} value={project.slug}>
              {project.name}
            </option>
          ))}
        </select>
      </label>
      <button type="button" className="button" disabled={pending} onClick={() => onAdd(chosen)}>
        {pending ? 'Adding…' : `Add ${count} to project`}
      </button>
    </>
  );
}

/** POST /export/podcasts with the picked podcasts of the search: the server checks the
 * plan, counts the export and writes the file with the plan's columns. */
function useExportPicked() {
  return useMutation({
    mutationFn: ({ searchId, podcastIds }: { searchId: string; podcastIds: string[] }) =>
      downloadRequest('/export/podcasts', { method: 'POST', body: { searchHistoryId: searchId, podcastIds, format: 'csv' } }),
  });
}

/** What to do with the ticked podcasts: add them to an active project (signed in, one
 * call each), export them as CSV (plans with exports, counted by the server), or let go;
 * the last action's outcome until the selection changes. */
export function SelectionBar({
  hits,
  canAddToProject,
  defaultProjectSlug,
  onClear,
  searchId,
  tier,
}: {
  hits: PodcastHit[];
  canAddToProject: boolean;
  defaultProjectSlug?: string;
  onClear: () => void;
  /** The search the hits came from; exports name it. */
  searchId?: string;
  tier: PlanTier;
}) {
  const add = useAddPodcastsToProject();
  const exporter = useExportPicked();
  const [target, setTarget] = useState('');
  const [exported, setExported] = useState<number | null>(null);
  const ids = hits.map((hit) => hit.podcastId);
  const selectionKey = ids.join(',');
  const { reset } = add;
  const { reset: resetExport } = exporter;
  useEffect(() => {
    reset();
    resetExport();
    setExported(null);
  }, [selectionKey, reset, resetExport]);
  const addAll = (project: { slug: string; name: string }) => {
    setTarget(project.name);
    add.mutate({ projectSlug: project.slug, podcastIds: ids });
  };
  const exportHits = () => {
    if (!searchId) return;
    exporter.mutate(
      { searchId, podcastIds: ids },
      {
        onSuccess: (blob) => {
          saveFile(blob, `podcasts-${new Date().toISOString().slice(0, 10)}.csv`);
          setExported(hits.length);
        },
      },
    );
  };
  const canExport = planExports(tier);
  return (
    <div className="selection-bar" role="region" aria-label="Selected podcasts">
      <div className="selection-bar-inner">
        <strong aria-live="polite">{hits.length} selected</strong>
        {canAddToProject ? <BulkAddToProject count={hits.length} defaultProjectSlug={defaultProjectSlug} pending={add.isPending} onAdd={addAll} /> : null}
        {canExport ? (
          <button type="button" className="button button-secondary" disabled={exporter.isPending || !searchId} onClick={exportHits}>
            {exporter.isPending ? 'Exporting…' : `Export ${hits.length}`}
          </button>
        ) : (
          <span className="muted">
            <LockIcon />{' '}Export:{' '}
            <UpgradeLink tier={tier} needed={lowestTierExporting()} />
          </span>
        )}
        <button type="button" className="button button-ghost" onClick={onClear}>
          Clear selection
        </button>
        <span role="status" className={add.error || (add.data && add.data.failed.length > 0) ? 'form-error' : 'muted'}>
          {[
            add.data ? describeBulkAdd(add.data, target) : add.error ? errorText(add.error) : null,
            exported !== null ? `Exported ${exported} to CSV` : exporter.error ? errorText(exporter.error) : null,
          ]
            .filter(Boolean)
            .join(' · ')}
        </span>
      </div>
    </div>
  );
}
