import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';

import { Artwork } from '@/components/ui/artwork';
import { PageHeader, Section } from '@/components/ui/page-header';
import { EmptyState, ErrorState, NotAvailable, QueryState, Spinner } from '@/components/ui/states';
import { useProjects } from '@/features/projects/api/projects';
import { ApiClientError } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { links, paths } from '@/config/paths';

import { useCreateGuestProfile, useGuestProfile, type GuestForm } from '../api/guests';

/** Guest profiles: each lives on its own project, so the list is the projects that have one. */
export function GuestsPage() {
  const query = useProjects();
  return (
    <div>
      <PageHeader
        title="Guest profiles"
        lead="Profiles of the people you pitch to podcasts."
        actions={
          <Link className="button" to={paths.guestNew.pattern}>
            New guest profile
          </Link>
        }
      />
      <QueryState
        query={query}
        feature="Guest profiles"
        isEmpty={(data) => data.projects.every((project) => project.linkedGuestProfile === null)}
        empty={
          <EmptyState title="No guest profiles yet">
            <Link to={paths.guestNew.pattern}>Create the first one</Link>
          </EmptyState>
        }
      >
        {(data) => (
          <ul className="project-list" aria-label="Guest profiles">
            {data.projects.flatMap((project) =>
              project.linkedGuestProfile
                ? [
                    <li key={project.linkedGuestProfile.id} className="card guest-card">
                      <Artwork src={project.linkedGuestProfile.imageUrl} title={project.linkedGuestProfile.name} size={48} />
                      <div>
                        <h2>
                          <Link to={links.project(project.slug, 'guest-profile')}>{project.linkedGuestProfile.name}</Link>
                        </h2>
                        <p className="meta">
                          {project.linkedGuestProfile.companyName ? `${project.linkedGuestProfile.companyName} · ` : ''}
                          {project.linkedGuestProfile.status} · {project.listedPodcastsCount} podcasts on{' '}
                          <Link to={links.project(project.slug)}>{project.name}</Link>
                        </p>
                      </div>
                    </li>,
                  ]
                : [],
            )}
          </ul>
        )}
      </QueryState>
    </div>
  );
}

const REQUIRED_NAMES: { key: keyof GuestForm; label: string }[] = [
  { key: 'firstName', label: 'First name' },
  { key: 'lastName', label: 'Last name' },
];

const REQUIRED_FIELDS: { key: keyof GuestForm; label: string }[] = [
  { key: 'shortBio', label: 'Short bio' },
  { key: 'goals', label: 'Goals' },
  { key: 'expertise', label: 'Expertise' },
  { key: 'topicsToDiscuss', label: 'Topics to discuss' },
];

/** The guest form's required-field messages (SPEC §5), and the names the server requires. */
export function guestFormErrors(form: GuestForm): Partial<Record<keyof GuestForm, string>> {
  const errors: Partial<Record<keyof GuestForm, string>> = {};
  for (const field of REQUIRED_NAMES) {
    if (form[field.key].trim() === '') errors[field.key] = `${field.label} is required`;
  }
  for (const field of REQUIRED_FIELDS) {
    if (form[field.key].trim() === '') errors[field.key] = `${field.label} is required. The more detailed the better so our AI will work better.`;
  }
  return errors;
}

const EMPTY_FORM: GuestForm = {
  firstName: '',
  lastName: '',
  shortBio: '',
  goals: '',
  expertise: '',
  topicsToDiscuss: '',
  topicsToAvoid: '',
  companyName: '',
  linkedIn: '',
  websiteUrl: '',
};

export function NewGuestPage() {
  const [form, setForm] = useState<GuestForm>(EMPTY_FORM);
  const [errors, setErrors] = useState<Partial<Record<keyof GuestForm, string>>>({});
  const create = useCreateGuestProfile();
  const navigate = useNavigate();
  function submit(event: FormEvent) {
    event.preventDefault();
    const found = guestFormErrors(form);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      document.getElementById(`guest-${Object.keys(found)[0]}`)?.focus();
      return;
    }
    create.mutate(form, { onSuccess: (created) => navigate(links.project(created.projectSlug, 'guest-profile')) });
  }
  const field = (key: keyof GuestForm, label: string, options: { multiline?: boolean; type?: string } = {}) => {
    const errorId = `guest-${key}-error`;
    const props = {
      id: `guest-${key}`,
      value: form[key],
      'aria-invalid': errors[key] ? true : undefined,
      'aria-describedby': errors[key] ? errorId : undefined,
    };
    return (
      <label className="field" key={key}>
        <span>{label}</span>
        {options.multiline ? (
          <textarea rows={3} {...props} onChange={(event) => setForm({ ...form, [key]: event.target.value })} />
        ) : (
          <input type={options.type ?? 'text'} {...props} onChange={(event) => setForm({ ...form, [key]: event.target.value })} />
        )}
        {errors[key] ? (
          <span className="form-error" id={errorId}>
            {errors[key]}
          </span>
        ) : null}
      </label>
    );
  };
  return (
    <div className="narrow">
      <PageHeader title="New guest profile" lead="Tell us about the guest; the profile and a project to pitch them are created from it." />
      <form className="form card" onSubmit={submit} noValidate>
        <div className="grid-2">
          {field('firstName', 'First name')}
          {field('lastName', 'Last name')}
        </div>
        {field('shortBio', 'Short bio', { multiline: true })}
        {field('goals', 'Goals', { multiline: true })}
        {field('expertise', 'Expertise', { multiline: true })}
        {field('topicsToDiscuss', 'Topics to discuss', { multiline: true })}
        {field('topicsToAvoid', 'Topics to avoid (optional)', { multiline: true })}
        {field('companyName', 'Company name (optional)')}
        {field('linkedIn', 'LinkedIn (optional)', { type: 'url' })}
        {field('websiteUrl', 'Website (optional)', { type: 'url' })}
        {create.isError ? (
          <p className="form-error" role="alert">
            {create.error instanceof ApiClientError && create.error.isNotAvailable
              ? 'Guest profiles are not available on this server yet.'
              : create.error instanceof ApiClientError
                ? create.error.displayMessage
                : create.error.message}
          </p>
        ) : null}
        <button type="submit" className="button" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create guest profile'}
        </button>
      </form>
    </div>
  );
}

const List = ({ items }: { items: string[] }) =>
  items.length === 0 ? (
    <p className="muted">—</p>
  ) : (
    <ul>
      {items.map((item) => (
        <li key={item}>{item}</li>
      ))}
    </ul>
  );

/** /app/projects/{slug}/guest-profile: the profile linked to a project. */
export function ProjectGuestProfilePage({ projectSlug }: { projectSlug: string }) {
  const query = useGuestProfile(projectSlug);
  if (query.isPending) return <Spinner label="Loading guest profile…" />;
  if (query.isError) {
    const error = query.error;
    if (error instanceof ApiClientError && error.isNotAvailable) return <NotAvailable feature="Guest profiles" />;
    if (error instanceof ApiClientError && error.httpStatus === 404) {
      return (
        <EmptyState title="This project has no guest profile">
          <Link to={paths.guestNew.pattern}>Create a guest profile</Link>
        </EmptyState>
      );
    }
    return <ErrorState error={error} onRetry={() => void query.refetch()} />;
  }
  const profile = query.data;
  const bio = profile.guestBio;
  return (
    <div>
      <PageHeader
        title={profile.name}
        lead={`${profile.status} · ${profile.listedPodcastsCount} podcasts · updated ${formatDate(profile.updatedAt)}`}
        actions={
          <Link className="button" to={links.project(profile.projectSlug)}>
            Project board
          </Link>
        }
      />
      <dl className="facts">
        {profile.companyName ? (
          <div>
            <dt>Company</dt>
            <dd>{profile.companyName}</dd>
          </div>
        ) : null}
        {profile.email ? (
          <div>
            <dt>Email</dt>
            <dd>{profile.email}</dd>
          </div>
        ) : null}
        {profile.websiteUrl ? (
          <div>
            <dt>Website</dt>
            <dd>
              <a href={profile.websiteUrl} rel="noopener noreferrer nofollow" target="_blank">
                {profile.websiteUrl}
              </a>
            </dd>
          </div>
        ) : null}
      </dl>
      {bio ? (
        <>
          <Section title="Short bio">
            <p>{bio.shortBio}</p>
          </Section>
          {bio.longBio ? (
            <Section title="Long bio">
              <p className="email-body">{bio.longBio}</p>
            </Section>
          ) : null}
          <div className="grid-2">
            <Section title="Goals">
              <List items={bio.goals} />
            </Section>
            <Section title="Expertise">
              <List items={bio.areasOfExpertise} />
            </Section>
            <Section title="Topics to discuss">
              <List items={bio.topicsToDiscuss} />
            </Section>
            <Section title="Topics to avoid">
              <List items={bio.thingsToAvoid} />
            </Section>
          </div>
        </>
      ) : (
        <EmptyState title="The profile is still being written">Its status is {profile.status}.</EmptyState>
      )}
    </div>
  );
}
