import { Link } from 'react-router';

import { PageHeader } from '@/components/ui/page-header';
import { EmptyState, QueryState } from '@/components/ui/states';
import { formatDate } from '@/lib/format';
import { links } from '@/config/paths';

import { useTranscriptionRequests } from '../api/transcriptions';

export function TranscriptionsPage() {
  const query = useTranscriptionRequests();
  return (
    <div>
      <PageHeader title="Transcriptions" lead="Episodes your team asked to transcribe." />
      <QueryState query={query} feature="Transcription requests" isEmpty={(data) => data.requests.length === 0} empty={<EmptyState title="No transcription requests yet" />}>
        {(data) => (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Episode</th>
                  <th scope="col">Podcast</th>
                  <th scope="col">Requested</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {data.requests.map((request, index) => (
                  <tr key={`${String(request.episodeId)}-${index}`}>
                    <td>{String(request.episodeTitle ?? request.episodeSlug ?? '')}</td>
                    <td>
                      <Link to={links.podcast(request.podcastSlug)}>{request.podcastTitle}</Link>
                    </td>
                    <td>{formatDate(request.requestedAt)}</td>
                    <td>{request.completedAt ? 'completed' : request.failureReason ? `failed: ${request.failureReason}` : 'not_started'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryState>
    </div>
  );
}
