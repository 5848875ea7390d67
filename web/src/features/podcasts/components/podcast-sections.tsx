import { Link } from 'react-router';

import { BarChart } from '@/components/charts/charts';
import { Artwork } from '@/components/ui/artwork';
import { Section } from '@/components/ui/page-header';
import { EmptyState, QueryState } from '@/components/ui/states';
import { formatCompact, formatNumber } from '@/lib/format';
import { links, paths } from '@/config/paths';
import type { PlanTier } from '@/config/plans';
import type { Podcast } from '@/lib/api-types';

import {
  usePodcastContacts,
  usePodcastReviews,
  usePodcastSocialMedia,
  useRelatedPodcasts,
} from '../api/get-podcast';
import { socialLabel } from '../labels';

export function ReviewsSection({ slug }: { slug: string }) {
  const query = usePodcastReviews(slug);
  return (
    <Section title="Reviews">
      <QueryState query={query} feature="Reviews">
        {({ podcastReviews: reviews }) => {
          const apple = reviews.applePodcastsReview;
          if (!apple && !reviews.spotifyReview && !reviews.castbox) {
            return <EmptyState title="No ratings collected yet" />;
          }
          return (
            <div className="grid-3">
              {apple ? (
                <div className="card">
                  <h3>Apple Podcasts</h3>
                  <p className="big-number">{apple.rating?.toFixed(1) ?? '—'} ★</p>
                  <p className="muted">{formatNumber(apple.reviewsCount)} ratings ({apple.country.toUpperCase()})</p>
                  <BarChart
                    label="Apple ratings by stars"
                    height={160}
                    categoryKey="stars"
                    series={[{ key: 'count', label: 'Ratings' }]}
                    data={[
                      { stars: '5★', count: apple.fiveStarCount },
                      { stars: '4★', count: apple.fourStarCount },
                      { stars: '3★', count: apple.threeStarCount },
                      { stars: '2★', count: apple.twoStarCount },
                      { stars: '1★', count: apple.oneStarCount },
                    ]}
                  />
                </div>
              ) : null}
              {reviews.spotifyReview ? (
                <div className="card">
                  <h3>Spotify</h3>
                  <p className="big-number">{reviews.spotifyReview.rating?.toFixed(1) ?? '—'} ★</p>
                  <p className="muted">{formatNumber(reviews.spotifyReview.reviewsCount)} ratings</p>
                </div>
              ) : null}
              {reviews.castbox ? (
                <div className="card">
                  <h3>Castbox</h3>
                  <p className="big-number">{formatCompact(reviews.castbox.plays)}</p>
                  <p className="muted">plays · {formatCompact(reviews.castbox.subscribers)} subscribers</p>
                </div>
              ) : null}
            </div>
          );
        }}
      </QueryState>
    </Section>
  );
}

/** Contacts per plan (SPEC §6): signed-out and free visitors see an upgrade hint. */
export function ContactsSection({ slug, podcast, tier }: { slug: string; podcast: Podcast; tier: PlanTier }) {
  const allowed = tier !== 'public' && tier !== 'free';
  return (
    <Section title="Contacts">
      {allowed ? <ContactsList slug={slug} podcast={podcast} /> : <LockedContacts tier={tier} />}
    </Section>
  );
}

function LockedContacts({ tier }: { tier: PlanTier }) {
  return (
    <div className="locked">
      <p>Contact emails, phone numbers and contact pages are available from the individual plan.</p>
      {tier === 'public' ? (
        <Link className="button" to={paths.signIn.pattern}>
          Sign in
        </Link>
      ) : (
        <Link className="button" to={paths.pricing.pattern}>
          Upgrade
        </Link>
      )}
    </div>
  );
}

function ContactsList({ slug, podcast }: { slug: string; podcast: Podcast }) {
  const query = usePodcastContacts(slug);
  return (
    <QueryState query={query} feature="Contacts">
      {({ podcastContacts: contacts }) => {
        const emails = contacts.emails.map((item) => item.email);
        if (podcast.primaryContactEmail && !emails.includes(podcast.primaryContactEmail)) {
          emails.unshift(podcast.primaryContactEmail);
        }
        if (emails.length === 0 && contacts.phoneNumbers.length === 0 && contacts.websites.length === 0) {
          return <EmptyState title="No contacts found" />;
        }
        return (
          <dl className="contact-list">
            {emails.length > 0 ? (
              <>
                <dt>Emails</dt>
                {emails.map((email) => (
                  <dd key={email}>
                    <a href={`mailto:${email}`}>{email}</a>
                  </dd>
                ))}
              </>
            ) : null}
            {contacts.phoneNumbers.length > 0 ? (
              <>
                <dt>Phone numbers</dt>
                {contacts.phoneNumbers.map((phone) => (
                  <dd key={phone}>{phone}</dd>
                ))}
              </>
            ) : null}
            {contacts.websites.length > 0 ? (
              <>
                <dt>Websites</dt>
                {contacts.websites.map((site) => (
                  <dd key={site.url}>
                    <a href={site.url} rel="noopener noreferrer nofollow" target="_blank">
                      {site.url}
                    </a>
                    {site.verified ? <span className="badge">verified</span> : null}
                    {site.contactUrls.length > 0 ? ` · ${site.contactUrls.length} contact page(s)` : ''}
                  </dd>
                ))}
              </>
            ) : null}
          </dl>
        );
      }}
    </QueryState>
  );
}

export function SocialsSection({ slug, podcast }: { slug: string; podcast: Podcast }) {
  const query = usePodcastSocialMedia(slug);
  const followerRows = query.data
    ? [
        ...query.data.socialMediaData.facebookPageData.map((d) => ({ platform: 'Facebook', followers: d.followers })),
        ...query.data.socialMediaData.instagramData.map((d) => ({ platform: 'Instagram', followers: d.followers })),
        ...query.data.socialMediaData.twitterData.map((d) => ({ platform: 'X (Twitter)', followers: d.followerCount })),
        ...query.data.socialMediaData.tiktokData.map((d) => ({ platform: 'TikTok', followers: d.followers })),
        ...query.data.socialMediaData.linkedInPersonData.map((d) => ({ platform: 'LinkedIn', followers: d.followerCount })),
        ...query.data.socialMediaData.linkedInCompanyData.map((d) => ({ platform: 'LinkedIn', followers: d.followers ?? 0 })),
      ]
    : [];
  return (
    <Section title="Socials">
      {podcast.socialMediaLinks.length === 0 ? (
        <EmptyState title="No social profiles found" />
      ) : (
        <ul className="link-row">
          {podcast.socialMediaLinks.map((link) => (
            <li key={link.url}>
              <a href={link.url} rel="noopener noreferrer nofollow" target="_blank">
                {socialLabel(link.socialMediaType)}
              </a>
            </li>
          ))}
        </ul>
      )}
      {followerRows.length > 0 ? (
        <BarChart
          label="Followers by platform"
          height={200}
          categoryKey="platform"
          series={[{ key: 'followers', label: 'Followers' }]}
          data={followerRows}
          valueFormatter={formatCompact}
        />
      ) : null}
    </Section>
  );
}

export function RelatedPodcastsSection({ slug }: { slug: string }) {
  const query = useRelatedPodcasts(slug);
  return (
    <Section title="Related podcasts">
      <QueryState
        query={query}
        feature="Related podcasts"
        isEmpty={(data) => data.relatedPodcasts.similarPodcasts.length === 0}
        empty={<EmptyState title="No related podcasts found" />}
      >
        {(data) => (
          <ul className="card-grid">
            {data.relatedPodcasts.similarPodcasts.map((podcast) => (
              <li key={podcast.id} className="podcast-card">
                <Link to={links.podcast(podcast.slug)}>
                  <Artwork src={podcast.imageUrl} title={podcast.title} size={96} />
                  <span className="podcast-card-title">{podcast.title}</span>
                </Link>
                {podcast.author ? <span className="muted">{podcast.author}</span> : null}
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </Section>
  );
}
