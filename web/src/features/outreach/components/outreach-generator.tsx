import { useState, type FormEvent } from 'react';

import { Link } from 'react-router';

import { Spinner } from '@/components/ui/states';
import { links } from '@/config/paths';
import { useSession } from '@/features/settings/api/team';
import { useGuestProfile } from '@/features/guests/api/guests';
import { ApiClientError } from '@/lib/api-client';

import {
  CALL_TO_ACTION_STYLES,
  EMAIL_LENGTHS,
  PERSONALIZATION_LEVELS,
  PERSPECTIVES,
  useGenerateOutreach,
  useOutreachTemplates,
  type GenerateOutreachInput,
  type OutreachGuest,
} from '../api/outreach';
import { GeneratedEmail } from './generated-email';
import { PodcastPicker } from './podcast-picker';

const PERSPECTIVE_LABELS: Record<string, string> = { first: 'First person (I)', third: 'Third person (on behalf of the guest)' };

type GuestFields = { name: string; companyName: string; shortBio: string; expertise: string; topics: string };
const NO_GUEST: GuestFields = { name: '', companyName: '', shortBio: '', expertise: '', topics: '' };

/** The guest part of the body: only the fields filled in; none at all pitches the signed-in user. */
function guestOf(fields: GuestFields): OutreachGuest | undefined {
  const guest: OutreachGuest = {};
  if (fields.name.trim()) guest.name = fields.name.trim();
  if (fields.companyName.trim()) guest.companyName = fields.companyName.trim();
  if (fields.shortBio.trim()) guest.shortBio = fields.shortBio.trim();
  if (fields.expertise.trim()) guest.expertise = fields.expertise.trim();
  const topics = fields.topics
    .split('\n')
    .map((topic) => topic.trim())
    .filter(Boolean);
  if (topics.length > 0) guest.topicsToDiscuss = topics;
  return Object.keys(guest).length > 0 ? guest : undefined;
}

type GeneratorProps = { podcastId?: string; guestProfileId?: string; projectId?: string };

/** The generator; with a guest profile its details fill the guest fields first. */
export function OutreachGenerator({ podcastId, guestProfileId, projectId }: GeneratorProps) {
  if (!guestProfileId) return <GeneratorForm podcastId={podcastId} projectId={projectId} initialGuest={NO_GUEST} />;
  return <GuestProfileGenerator podcastId={podcastId} guestProfileId={guestProfileId} projectId={projectId} />;
}

function GuestProfileGenerator({ podcastId, guestProfileId, projectId }: GeneratorProps & { guestProfileId: string }) {
  const profile = useGuestProfile(guestProfileId);
  if (profile.isPending) return <Spinner label="Loading the guest profile…" />;
  if (profile.isError) {
    return (
      <>
        <p className="muted">The guest profile could not be read; fill in the guest yourself.</p>
        <GeneratorForm podcastId={podcastId} guestProfileId={guestProfileId} projectId={projectId} initialGuest={NO_GUEST} />
      </>
    );
  }
  const data = profile.data;
  const bio = data.guestBio;
  const initialGuest: GuestFields = {
    name: data.name ?? [data.firstName, data.lastName].filter(Boolean).join(' '),
    companyName: data.companyName ?? '',
    shortBio: bio?.shortBio ?? '',
    expertise: bio?.areasOfExpertise.join(', ') ?? '',
    topics: bio?.topicsToDiscuss.join('\n') ?? '',
  };
  return <GeneratorForm podcastId={podcastId} guestProfileId={guestProfileId} projectId={projectId} initialGuest={initialGuest} />;
}

function OptionSelect<T extends string>({
  label,
  value,
  options,
  labels,
  onChange,
}: {
  label: string;
  value: T;
  options: readonly T[];
  labels?: Record<string, string>;
  onChange: (value: T) => void;
}) {
  return (
    <label className="field">
      <span>{label}</span>
      <select value={value} onChange={(event) => onChange(event.target.value as T)}>
        {options.map((option) => (
          <option key={option} value={option}>
            {labels?.[option] ?? option}
          </option>
        ))}
      </select>
    </label>
  );
}

function GeneratorForm({ podcastId, guestProfileId, projectId, initialGuest }: GeneratorProps & { initialGuest: GuestFields }) {
  const templates = useOutreachTemplates();
  const generate = useGenerateOutreach();
  const [podcast, setPodcast] = useState(podcastId ?? '');
  const [templateId, setTemplateId] = useState('default');
  const [perspective, setPerspective] = useState<GenerateOutreachInput['perspective']>('first');
  const [emailLength, setEmailLength] = useState<GenerateOutreachInput['emailLength']>('medium');
  const [callToActionStyle, setCallToActionStyle] = useState<GenerateOutreachInput['callToActionStyle']>('medium');
  const [personalizationLevel, setPersonalizationLevel] = useState<GenerateOutreachInput['personalizationLevel']>('medium');
  const [guest, setGuest] = useState<GuestFields>(initialGuest);
  const [missingPodcast, setMissingPodcast] = useState(false);
  const [senderName, setSenderName] = useState('');
  const chosenName = useSession().data?.displayName ?? null;

  const setGuestField = (name: keyof GuestFields) => (event: { target: { value: string } }) =>
    setGuest((current) => ({ ...current, [name]: event.target.value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!podcast.trim()) {
      setMissingPodcast(true);
      return;
    }
    setMissingPodcast(false);
    const input: GenerateOutreachInput = {
      podcastId: podcast.trim(),
      outreachTemplateId: templateId,
      perspective,
      emailLength,
      callToActionStyle,
      personalizationLevel,
    };
    if (guestProfileId) input.guestProfileId = guestProfileId;
    if (projectId) input.projectId = projectId;
    if (senderName.trim()) input.senderName = senderName.trim();
    const guestBody = guestOf(guest);
    if (guestBody) input.guest = guestBody;
    generate.mutate(input);
  };

  const templateChoices = templates.data?.templates.map(({ id, name }) => ({ id, name })) ?? [{ id: 'default', name: 'Default' }];
  const chosenTemplate = templates.data?.templates.find((template) => template.id === templateId);
  const failure = generate.error;
  const failureMessage = failure instanceof ApiClientError ? failure.displayMessage : failure instanceof Error ? failure.message : null;

  return (
    <div className="outreach-generator">
      <form className="stack" onSubmit={submit} aria-label="Write an outreach email" noValidate>
        <PodcastPicker value={podcast} onChange={setPodcast} invalid={missingPodcast} errorId="outreach-podcast-error" />
        {missingPodcast ? (
          <span id="outreach-podcast-error" className="form-error">
            Choose the podcast to write to.
          </span>
        ) : null}
        <label className="field">
          <span>Signed by (emails written on the guest's behalf)</span>
          <input
            value={senderName}
            onChange={(event) => setSenderName(event.target.value)}
            placeholder={chosenName ?? '[Your name]'}
            aria-describedby="outreach-signed-by-hint"
            autoComplete="name"
          />
        </label>
        <p id="outreach-signed-by-hint" className="meta">
          {chosenName ? `Left empty, the email is signed ${chosenName}: ` : 'Left empty, the email leaves "[Your name]" to fill in: '}
          <Link to={links.userSettings('profile')}>{chosenName ? 'change your name' : 'set your name'}</Link> in your settings.
        </p>
        <div className="grid-2">
          <label className="field">
            <span>Template</span>
            <select value={templateId} onChange={(event) => setTemplateId(event.target.value)} disabled={templates.isPending}>
              {templateChoices.map(({ id, name }) => (
                <option key={id} value={id}>
                  {name}
                </option>
              ))}
            </select>
            {templates.isError ? <span className="muted">The templates could not be listed; the default one is used.</span> : null}
          </label>
          <OptionSelect label="Perspective" value={perspective} options={PERSPECTIVES} labels={PERSPECTIVE_LABELS} onChange={setPerspective} />
          <OptionSelect label="Length" value={emailLength} options={EMAIL_LENGTHS} onChange={setEmailLength} />
          <OptionSelect label="Call to action" value={callToActionStyle} options={CALL_TO_ACTION_STYLES} onChange={setCallToActionStyle} />
          <OptionSelect label="Personalization" value={personalizationLevel} options={PERSONALIZATION_LEVELS} onChange={setPersonalizationLevel} />
        </div>
        {chosenTemplate ? (
          <details>
            <summary>Template text</summary>
            <pre className="email-body">{chosenTemplate.template}</pre>
          </details>
        ) : null}
        <fieldset className="field">
          <legend>Guest (leave empty to pitch yourself)</legend>
          <div className="grid-2">
            <label className="field">
              <span>Guest name</span>
              <input value={guest.name} onChange={setGuestField('name')} />
            </label>
            <label className="field">
              <span>Company</span>
              <input value={guest.companyName} onChange={setGuestField('companyName')} />
            </label>
          </div>
          <label className="field">
            <span>Short bio</span>
            <textarea rows={3} value={guest.shortBio} onChange={setGuestField('shortBio')} />
          </label>
          <label className="field">
            <span>Expertise</span>
            <input value={guest.expertise} onChange={setGuestField('expertise')} />
          </label>
          <label className="field">
            <span>Topics to discuss (one a line)</span>
            <textarea rows={3} value={guest.topics} onChange={setGuestField('topics')} />
          </label>
        </fieldset>
        <p className="muted">Each email counts as one AI assist of your plan.</p>
        <div>
          <button type="submit" className="button" disabled={generate.isPending}>
            {generate.isPending ? 'Writing…' : 'Generate email'}
          </button>
        </div>
      </form>
      {generate.isPending ? <Spinner label="Writing the email…" /> : null}
      {failureMessage && !generate.isPending ? (
        <div className="state state-error" role="alert">
          <p className="state-title">The email was not written</p>
          <p>{failureMessage}</p>
        </div>
      ) : null}
      {generate.data && !generate.isPending ? <GeneratedEmail outreach={generate.data.outreach} showLink /> : null}
    </div>
  );
}
