import { useState, type FormEvent } from 'react';

import { ApiClientError } from '@/lib/api-client';

import { ALERT_TYPES, EMAIL_FREQUENCIES, type AlertType, type EmailFrequency } from '../api/alerts';

/** The fields of the alert form, lists as one entry a line. */
export type AlertFormValues = {
  alertName: string;
  alertType: AlertType;
  value: string;
  otherSpellings: string;
  excludeAds: boolean;
  requireSubject: boolean;
  genresToInclude: string;
  genresToSkip: string;
  subjectNote: string;
  frequency: EmailFrequency;
  otherEmails: string;
  enabled: boolean;
  generateAlternativeSpellings: boolean;
};

export const EMPTY_ALERT: AlertFormValues = {
  alertName: '',
  alertType: 'person',
  value: '',
  otherSpellings: '',
  excludeAds: true,
  requireSubject: false,
  genresToInclude: '',
  genresToSkip: '',
  subjectNote: '',
  frequency: 'daily',
  otherEmails: '',
  enabled: true,
  generateAlternativeSpellings: false,
};

const TYPE_LABELS: Record<AlertType, string> = { person: 'Person', company: 'Company', 'custom-keyword': 'Keyword' };

/** One entry a line (or comma for genres), trimmed, empty ones dropped. */
export const lines = (text: string, separator: RegExp = /\n/) =>
  text
    .split(separator)
    .map((item) => item.trim())
    .filter(Boolean);

/** The settings every alert type shares, as the server names them. */
export function settingsOf(values: AlertFormValues) {
  return {
    otherSpellings: lines(values.otherSpellings),
    otherEmails: lines(values.otherEmails),
    genresToInclude: lines(values.genresToInclude, /[,\n]/),
    genresToSkip: lines(values.genresToSkip, /[,\n]/),
    filters: { excludeAds: values.excludeAds, requireSubject: values.requireSubject },
    subjectNote: values.subjectNote.trim() || null,
  };
}

type AlertFormProps = {
  initial: AlertFormValues;
  mode: 'create' | 'edit';
  pending: boolean;
  error: unknown;
  onSubmit: (values: AlertFormValues) => void;
  onCancel?: () => void;
};

/** Create or edit an alert; the server checks the fields and its message is shown as sent. */
export function AlertForm({ initial, mode, pending, error, onSubmit, onCancel }: AlertFormProps) {
  const [values, setValues] = useState(initial);
  const set =
    <K extends keyof AlertFormValues>(key: K) =>
    (value: AlertFormValues[K]) =>
      setValues((current) => ({ ...current, [key]: value }));
  const text = (key: 'alertName' | 'value' | 'otherSpellings' | 'genresToInclude' | 'genresToSkip' | 'subjectNote' | 'otherEmails') => ({
    value: values[key],
    onChange: (event: { target: { value: string } }) => set(key)(event.target.value),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(values);
  };
  const message = error instanceof ApiClientError ? error.displayMessage : error instanceof Error ? error.message : null;
  return (
    <form className="stack card" onSubmit={submit} aria-label={mode === 'create' ? 'New alert' : 'Edit alert'} noValidate>
      <div className="grid-2">
        <label className="field">
          <span>Alert name</span>
          <input {...text('alertName')} />
        </label>
        <label className="field">
          <span>Alert type</span>
          <select value={values.alertType} disabled={mode === 'edit'} onChange={(event) => set('alertType')(event.target.value as AlertType)}>
            {ALERT_TYPES.map((type) => (
              <option key={type} value={type}>
                {TYPE_LABELS[type]}
              </option>
            ))}
          </select>
        </label>
      </div>
      <fieldset className="field">
        <legend>Search terms</legend>
        <label className="field">
          <span>Name or keyword to find</span>
          <input {...text('value')} />
        </label>
        <label className="field">
          <span>Other spellings (one a line)</span>
          <textarea rows={3} {...text('otherSpellings')} />
        </label>
        {mode === 'create' ? (
          <label className="checkbox">
            <input
              type="checkbox"
              checked={values.generateAlternativeSpellings}
              onChange={(event) => set('generateAlternativeSpellings')(event.target.checked)}
            />
            Suggest more spellings
          </label>
        ) : null}
      </fieldset>
      <fieldset className="field">
        <legend>Filters</legend>
        <label className="checkbox">
          <input type="checkbox" checked={values.excludeAds} onChange={(event) => set('excludeAds')(event.target.checked)} />
          Leave out advertisements
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={values.requireSubject} onChange={(event) => set('requireSubject')(event.target.checked)} />
          Only mentions about the subject itself
        </label>
        <label className="field">
          <span>Who or what is meant (tells mentions of the subject from others)</span>
          <input {...text('subjectNote')} />
        </label>
        <div className="grid-2">
          <label className="field">
            <span>Only these genres (comma separated)</span>
            <input {...text('genresToInclude')} />
          </label>
          <label className="field">
            <span>Skip these genres (comma separated)</span>
            <input {...text('genresToSkip')} />
          </label>
        </div>
      </fieldset>
      <fieldset className="field">
        <legend>E-mail</legend>
        <label className="field">
          <span>E-mail frequency</span>
          <select value={values.frequency} onChange={(event) => set('frequency')(event.target.value as EmailFrequency)}>
            {EMAIL_FREQUENCIES.map((frequency) => (
              <option key={frequency} value={frequency}>
                {frequency}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Also send to (one address a line)</span>
          <textarea rows={2} {...text('otherEmails')} />
        </label>
      </fieldset>
      <label className="checkbox">
        <input type="checkbox" checked={values.enabled} onChange={(event) => set('enabled')(event.target.checked)} />
        Alert is on
      </label>
      {message ? (
        <p className="form-error" role="alert">
          {message}
        </p>
      ) : null}
      <div className="toolbar">
        <button type="submit" className="button" disabled={pending}>
          {pending ? 'Saving…' : mode === 'create' ? 'Create alert' : 'Save alert'}
        </button>
        {onCancel ? (
          <button type="button" className="button button-secondary" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
