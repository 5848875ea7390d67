import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';

import { PageHeader } from '@/components/ui/page-header';
import { NotAvailable } from '@/components/ui/states';
import { ApiClientError, apiRequest } from '@/lib/api-client';

export function GuestsPage() {
  return (
    <div>
      <PageHeader title="Guest profiles" lead="Profiles of the people you pitch to podcasts." />
      <NotAvailable feature="The guest profile list" />
    </div>
  );
}

type GuestForm = { shortBio: string; goals: string; expertise: string; topicsToDiscuss: string; topicsToAvoid: string; companyName: string; linkedIn: string; websiteUrl: string };

const REQUIRED: { key: keyof GuestForm; label: string }[] = [
  { key: 'shortBio', label: 'Short bio' },
  { key: 'goals', label: 'Goals' },
  { key: 'expertise', label: 'Expertise' },
  { key: 'topicsToDiscuss', label: 'Topics to discuss' },
];

/** The guest form's required-field messages (SPEC §5). */
export function guestFormErrors(form: GuestForm): Partial<Record<keyof GuestForm, string>> {
  const errors: Partial<Record<keyof GuestForm, string>> = {};
  for (const field of REQUIRED) {
    if (form[field.key].trim() === '') errors[field.key] = `${field.label} is required. The more detailed the better so our AI will work better.`;
  }
  return errors;
}

export function NewGuestPage() {
  const [form, setForm] = useState<GuestForm>({ shortBio: '', goals: '', expertise: '', topicsToDiscuss: '', topicsToAvoid: '', companyName: '', linkedIn: '', websiteUrl: '' });
  const [errors, setErrors] = useState<Partial<Record<keyof GuestForm, string>>>({});
  const create = useMutation({ mutationFn: (body: GuestForm) => apiRequest<unknown>('/guest-profiles', { method: 'POST', body }) });
  function submit(event: FormEvent) {
    event.preventDefault();
    const found = guestFormErrors(form);
    setErrors(found);
    if (Object.keys(found).length === 0) create.mutate(form);
  }
  const field = (key: keyof GuestForm, label: string, multiline = false) => (
    <label className="field" key={key}>
      <span>{label}</span>
      {multiline ? (
        <textarea rows={3} value={form[key]} onChange={(event) => setForm({ ...form, [key]: event.target.value })} aria-invalid={errors[key] ? true : undefined} />
      ) : (
        <input value={form[key]} onChange={(event) => setForm({ ...form, [key]: event.target.value })} />
      )}
      {errors[key] ? <span className="form-error">{errors[key]}</span> : null}
    </label>
  );
  return (
    <div className="narrow">
      <PageHeader title="New guest profile" />
      <form className="form card" onSubmit={submit} noValidate>
        {field('shortBio', 'Short bio', true)}
        {field('goals', 'Goals', true)}
        {field('expertise', 'Expertise', true)}
        {field('topicsToDiscuss', 'Topics to discuss', true)}
        {field('topicsToAvoid', 'Topics to avoid', true)}
        {field('companyName', 'Company name')}
        {field('linkedIn', 'LinkedIn (optional)')}
        {field('websiteUrl', 'Website (optional)')}
        {create.isError ? (
          <p className="form-error" role="alert">
            {create.error instanceof ApiClientError && create.error.isNotAvailable
              ? 'Guest profiles are not available on this server yet.'
              : create.error instanceof ApiClientError
                ? create.error.displayMessage
                : create.error.message}
          </p>
        ) : null}
        {create.isSuccess ? <p role="status">Guest profile created.</p> : null}
        <button type="submit" className="button" disabled={create.isPending}>
          Create guest profile
        </button>
      </form>
    </div>
  );
}
