import { useSaveTeamPodcast, useTeamPodcasts } from '@/features/settings/api/team';
import { ApiClientError } from '@/lib/api-client';

/** Saves the podcast to the team's podcasts (the team settings list them with their sync and blacklist flags). */
export function SaveToTeam({ podcastId }: { podcastId: string }) {
  const team = useTeamPodcasts();
  const save = useSaveTeamPodcast();
  const saved = save.isSuccess || (team.data?.teamPodcasts.some((item) => item.podcastId === podcastId) ?? false);
  if (saved) {
    return (
      <span role="status" className="muted">
        Saved to team podcasts
      </span>
    );
  }
  return (
    <>
      <button type="button" className="button button-secondary" disabled={save.isPending || team.isPending} onClick={() => save.mutate(podcastId)}>
        {save.isPending ? 'Saving…' : 'Save to team podcasts'}
      </button>
      {save.isError ? (
        <span className="form-error" role="alert">
          {save.error instanceof ApiClientError ? save.error.displayMessage : save.error.message}
        </span>
      ) : null}
    </>
  );
}
