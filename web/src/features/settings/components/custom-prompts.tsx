import { useState, type FormEvent } from 'react';

import { EmptyState, QueryState } from '@/components/ui/states';
import { errorText } from '@/lib/api-client';
import { formatDate } from '@/lib/format';

import {
  CONTEXT_TYPES,
  customPromptNameError,
  PROMPT_NAME_MAX,
  useCreateCustomPrompt,
  useCustomPrompts,
  useDeleteCustomPrompt,
  useUpdateCustomPrompt,
  type ContextType,
  type CustomPrompt,
  type CustomPromptInput,
} from '../api/custom-prompts';
import { ConfirmAction } from './confirm-action';

const CONTEXT_LABELS: Record<ContextType, string> = {
  podcast: 'A podcast',
  episode: 'An episode',
  transcript: 'A transcript',
};

const EMPTY: CustomPromptInput = { name: '', description: null, contextType: 'podcast', prompt: '' };

type FormProps = {
  mode: 'create' | 'edit';
  initial: CustomPromptInput;
  pending: boolean;
  error: unknown;
  onSubmit: (input: CustomPromptInput) => void;
  onCancel?: () => void;
};

/** Create or edit a prompt; the name rule is checked here with the server's message, and again by the server. */
function PromptForm({ mode, initial, pending, error, onSubmit, onCancel }: FormProps) {
  const [name, setName] = useState(initial.name);
  const [description, setDescription] = useState(initial.description ?? '');
  const [contextType, setContextType] = useState<ContextType>(initial.contextType);
  const [prompt, setPrompt] = useState(initial.prompt);
  const [problem, setProblem] = useState<{ field: 'name' | 'prompt'; message: string } | null>(null);
  const id = mode === 'create' ? 'new-prompt' : 'edit-prompt';
  function submit(event: FormEvent) {
    event.preventDefault();
    const nameError = customPromptNameError(name);
    if (nameError) {
      setProblem({ field: 'name', message: nameError });
      document.getElementById(`${id}-name`)?.focus();
      return;
    }
    if (!prompt.trim()) {
      setProblem({ field: 'prompt', message: 'Write the prompt the AI assist runs.' });
      document.getElementById(`${id}-prompt`)?.focus();
      return;
    }
    setProblem(null);
    onSubmit({ name: name.trim(), description: description.trim() || null, contextType, prompt: prompt.trim() });
  }
  const serverMessage = error ? errorText(error) : null;
  return (
    <form className="form card" onSubmit={submit} aria-label={mode === 'create' ? 'New custom prompt' : 'Edit custom prompt'} noValidate>
      <div className="field">
        <label htmlFor={`${id}-name`}>Name</label>
        <input
          id={`${id}-name`}
          value={name}
          maxLength={PROMPT_NAME_MAX + 20}
          onChange={(event) => setName(event.target.value)}
          aria-invalid={problem?.field === 'name' ? true : undefined}
          aria-describedby={problem?.field === 'name' ? `${id}-name-error` : undefined}
        />
        {problem?.field === 'name' ? (
          <span className="form-error" id={`${id}-name-error`}>
            {problem.message}
          </span>
        ) : null}
      </div>
      <label className="field">
        <span>Description (optional)</span>
        <input value={description} onChange={(event) => setDescription(event.target.value)} />
      </label>
      <label className="field">
        <span>Runs on</span>
        <select value={contextType} onChange={(event) => setContextType(event.target.value as ContextType)}>
          {CONTEXT_TYPES.map((type) => (
            <option key={type} value={type}>
              {CONTEXT_LABELS[type]}
            </option>
          ))}
        </select>
      </label>
      <div className="field">
        <label htmlFor={`${id}-prompt`}>Prompt</label>
        <textarea
          id={`${id}-prompt`}
          rows={5}
          value={prompt}
          onChange={(event) => setPrompt(event.target.value)}
          aria-invalid={problem?.field === 'prompt' ? true : undefined}
          aria-describedby={problem?.field === 'prompt' ? `${id}-prompt-error` : undefined}
        />
        {problem?.field === 'prompt' ? (
          <span className="form-error" id={`${id}-prompt-error`}>
            {problem.message}
          </span>
        ) : null}
      </div>
      {serverMessage ? (
        <p className="form-error" role="alert">
          {serverMessage}
        </p>
      ) : null}
      <div className="toolbar">
        <button type="submit" className="button" disabled={pending}>
          {pending ? 'Saving…' : mode === 'create' ? 'Create prompt' : 'Save prompt'}
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

function PromptCard({ prompt }: { prompt: CustomPrompt }) {
  const [editing, setEditing] = useState(false);
  const update = useUpdateCustomPrompt();
  const remove = useDeleteCustomPrompt();
  if (editing) {
    return (
      <li>
        <PromptForm
          mode="edit"
          initial={prompt}
          pending={update.isPending}
          error={update.error}
          onSubmit={(input) => update.mutate({ id: prompt.id, ...input }, { onSuccess: () => setEditing(false) })}
          onCancel={() => {
            update.reset();
            setEditing(false);
          }}
        />
      </li>
    );
  }
  return (
    <li className="card" data-testid="custom-prompt">
      <div className="card-title-row">
        <h3>{prompt.name}</h3>
        <span className="tag">{CONTEXT_LABELS[prompt.contextType] ?? prompt.contextType}</span>
      </div>
      {prompt.description ? <p className="meta">{prompt.description}</p> : null}
      <pre className="email-body">{prompt.prompt}</pre>
      {prompt.updatedAt ? <p className="meta">Updated {formatDate(prompt.updatedAt)}</p> : null}
      <div className="toolbar">
        <button type="button" className="button button-ghost button-small" aria-label={`Edit ${prompt.name}`} onClick={() => setEditing(true)}>
          Edit
        </button>
        <ConfirmAction
          label="Delete"
          subject={prompt.name}
          question={`Delete the prompt “${prompt.name}”? This cannot be undone.`}
          confirmLabel="Delete prompt"
          pending={remove.isPending}
          error={remove.error}
          onConfirm={() => remove.mutate(prompt.id)}
          onCancel={() => remove.reset()}
        />
      </div>
    </li>
  );
}

/** Team settings, custom prompts: the team's prompts, to create, edit and delete. */
export function CustomPrompts() {
  const query = useCustomPrompts();
  const create = useCreateCustomPrompt();
  const [creating, setCreating] = useState(false);
  const [formKey, setFormKey] = useState(0);
  return (
    <div className="stack">
      <p>Prompts your team runs with the AI assist over a podcast, an episode or a transcript. Each run counts as one AI assist.</p>
      <div className="toolbar">
        <button type="button" className="button" aria-expanded={creating} onClick={() => setCreating(!creating)}>
          New custom prompt
        </button>
      </div>
      {creating ? (
        <PromptForm
          key={formKey}
          mode="create"
          initial={EMPTY}
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
      <QueryState
        query={query}
        feature="Custom prompts"
        loadingLabel="Loading custom prompts…"
        isEmpty={(data) => data.customPrompts.length === 0}
        empty={<EmptyState title="No custom prompts yet">Create one to ask the same question of many podcasts.</EmptyState>}
      >
        {(data) => (
          <ul className="project-list" aria-label="Custom prompts">
            {data.customPrompts.map((prompt) => (
              <PromptCard key={prompt.id} prompt={prompt} />
            ))}
          </ul>
        )}
      </QueryState>
    </div>
  );
}
