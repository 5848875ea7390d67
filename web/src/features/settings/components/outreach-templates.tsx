import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';

import { EmptyState, QueryState } from '@/components/ui/states';
import { links } from '@/config/paths';
import { useOutreachTemplates } from '@/features/outreach/api/outreach';
import { errorText } from '@/lib/api-client';
import { formatDate } from '@/lib/format';

import { useSession } from '../api/team';
import {
  TEMPLATE_NAME_MAX,
  templateNameError,
  useCreateTemplate,
  useDeleteTemplate,
  useUpdateTemplate,
  type OutreachTemplate,
  type TemplateInput,
} from '../api/templates';
import { ConfirmAction } from './confirm-action';

const EMPTY: TemplateInput = { name: '', description: null, template: '' };

type FormProps = {
  mode: 'create' | 'edit';
  initial: TemplateInput;
  placeholders: string[];
  pending: boolean;
  error: unknown;
  onSubmit: (input: TemplateInput) => void;
  onCancel: () => void;
};

/** Create or edit a template; the name rule is checked here with the server's message, and again by the server. */
function TemplateForm({ mode, initial, placeholders, pending, error, onSubmit, onCancel }: FormProps) {
  const [name, setName] = useState(initial.name);
  const [description, setDescription] = useState(initial.description ?? '');
  const [text, setText] = useState(initial.template);
  const [problem, setProblem] = useState<{ field: 'name' | 'template'; message: string } | null>(null);
  const id = mode === 'create' ? 'new-template' : 'edit-template';
  function submit(event: FormEvent) {
    event.preventDefault();
    const nameError = templateNameError(name);
    if (nameError) {
      setProblem({ field: 'name', message: nameError });
      document.getElementById(`${id}-name`)?.focus();
      return;
    }
    if (!text.trim()) {
      setProblem({ field: 'template', message: 'Write the email text; placeholders in brackets are filled in.' });
      document.getElementById(`${id}-text`)?.focus();
      return;
    }
    setProblem(null);
    onSubmit({ name: name.trim(), description: description.trim() || null, template: text.trim() });
  }
  const fieldError = (field: 'name' | 'template') =>
    problem?.field === field ? (
      <span className="form-error" id={`${id}-${field}-error`}>
        {problem.message}
      </span>
    ) : null;
  return (
    <form className="form card" onSubmit={submit} aria-label={mode === 'create' ? 'New outreach template' : 'Edit outreach template'} noValidate>
      <div className="field">
        <label htmlFor={`${id}-name`}>Name</label>
        <input
          id={`${id}-name`}
          value={name}
          maxLength={TEMPLATE_NAME_MAX + 20}
          onChange={(event) => setName(event.target.value)}
          aria-invalid={problem?.field === 'name' ? true : undefined}
          aria-describedby={problem?.field === 'name' ? `${id}-name-error` : undefined}
        />
        {fieldError('name')}
      </div>
      <label className="field">
        <span>Description (optional)</span>
        <input value={description} onChange={(event) => setDescription(event.target.value)} />
      </label>
      <div className="field">
        <label htmlFor={`${id}-text`}>Email text</label>
        <textarea
          id={`${id}-text`}
          rows={8}
          value={text}
          onChange={(event) => setText(event.target.value)}
          aria-invalid={problem?.field === 'template' ? true : undefined}
          aria-describedby={`${id}-placeholders${problem?.field === 'template' ? ` ${id}-template-error` : ''}`}
        />
        <span className="muted" id={`${id}-placeholders`}>
          Placeholders: {placeholders.join(' ')}
        </span>
        {fieldError('template')}
      </div>
      {error ? (
        <p className="form-error" role="alert">
          {errorText(error)}
        </p>
      ) : null}
      <div className="toolbar">
        <button type="submit" className="button" disabled={pending}>
          {pending ? 'Saving…' : mode === 'create' ? 'Create template' : 'Save template'}
        </button>
        <button type="button" className="button button-secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function TemplateCard({ template, placeholders, mine }: { template: OutreachTemplate; placeholders: string[]; mine: boolean }) {
  const [editing, setEditing] = useState(false);
  const update = useUpdateTemplate();
  const remove = useDeleteTemplate();
  if (editing) {
    return (
      <li>
        <TemplateForm
          mode="edit"
          initial={{ name: template.name, description: template.description ?? null, template: template.template }}
          placeholders={placeholders}
          pending={update.isPending}
          error={update.error}
          onSubmit={(input) => update.mutate({ id: template.id, ...input }, { onSuccess: () => setEditing(false) })}
          onCancel={() => {
            update.reset();
            setEditing(false);
          }}
        />
      </li>
    );
  }
  return (
    <li className="card" data-testid="outreach-template">
      <div className="card-title-row">
        <h3>
          <Link to={links.userSettings('outreach-templates', template.id)}>{template.name}</Link>
        </h3>
        <span className="tag">{template.builtIn ? 'Built-in' : mine ? 'Yours' : 'Team'}</span>
      </div>
      {template.description ? <p className="meta">{template.description}</p> : null}
      <pre className="email-body">{template.template}</pre>
      {template.updatedAt ? <p className="meta">Updated {formatDate(template.updatedAt)}</p> : null}
      {mine ? (
        <div className="toolbar">
          <button type="button" className="button button-ghost button-small" aria-label={`Edit ${template.name}`} onClick={() => setEditing(true)}>
            Edit
          </button>
          <ConfirmAction
            label="Delete"
            subject={template.name}
            question={`Delete the template “${template.name}”? Emails already written from it keep their text.`}
            confirmLabel="Delete template"
            pending={remove.isPending}
            error={remove.error}
            onConfirm={() => remove.mutate(template.id)}
            onCancel={() => remove.reset()}
          />
        </div>
      ) : null}
    </li>
  );
}

/** User settings, outreach templates: the built-in templates and the team's own; a member edits the ones they wrote. */
export function OutreachTemplates({ slug }: { slug?: string }) {
  const query = useOutreachTemplates();
  const session = useSession();
  const create = useCreateTemplate();
  const [creating, setCreating] = useState(false);
  const [formKey, setFormKey] = useState(0);
  const placeholders = query.data?.placeholders ?? [];
  return (
    <div className="stack">
      <p>Outreach emails are written from a template: its bracketed placeholders are filled from the podcast, the guest and you. Your team can use every template here.</p>
      {slug ? null : (
        <div className="toolbar">
          <button type="button" className="button" aria-expanded={creating} onClick={() => setCreating(!creating)}>
            New template
          </button>
        </div>
      )}
      {creating ? (
        <TemplateForm
          key={formKey}
          mode="create"
          initial={EMPTY}
          placeholders={placeholders}
          pending={create.isPending}
          error={create.error}
          onSubmit={(input) =>
            create.mutate(input, {
              onSuccess: () => {
                setCreating(false);
                setFormKey(formKey + 1);
              },
            })
          }
          onCancel={() => {
            create.reset();
            setCreating(false);
          }}
        />
      ) : null}
      <QueryState query={query} feature="Outreach templates" isEmpty={(data) => data.templates.length === 0} empty={<EmptyState title="No templates" />}>
        {(data) => {
          const shown = slug ? data.templates.filter((template) => template.id === slug || template.slug === slug) : data.templates;
          if (shown.length === 0) return <EmptyState title="Template not found" />;
          return (
            <ul className="project-list" aria-label="Outreach templates">
              {shown.map((template) => (
                <TemplateCard
                  key={template.id}
                  template={template}
                  placeholders={data.placeholders}
                  mine={!template.builtIn && template.ownerUserId === session.data?.userId}
                />
              ))}
            </ul>
          );
        }}
      </QueryState>
    </div>
  );
}
