import { useMutation } from '@tanstack/react-query';
import { messages } from '@tumble/contracts/messages';
import { ApiError, api } from '../api/client';

/**
 * Hands a fetched file to the browser as a download. Files need the bearer token, so they are
 * fetched with `api.download` and saved here instead of being linked to.
 *
 * @example saveBlob(await api.download(payment.receipt_url), `receipt-${payment.id}.pdf`);
 */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  // Firefox only follows a click on a link that is in the document.
  document.body.append(link);
  link.click();
  link.remove();
  // Revoking in the same task can cancel the download before the browser has read the blob.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** What to tell the user when a download failed. */
export function downloadFailureText(error: Error): string {
  if (error instanceof ApiError) return error.serverMessage ?? messages.formLoadFailed;
  return messages.communicationError;
}

/**
 * Download buttons of a list: `download(path, filename)` fetches and saves one file; `pendingPath`
 * names the file on its way, so only its button spins; `failure` says why the last one failed.
 */
export function useFileDownload() {
  const mutation = useMutation({
    mutationFn: async ({ path, filename }: { path: string; filename: string }) =>
      saveBlob(await api.download(path), filename),
  });
  return {
    download: (path: string, filename: string) => mutation.mutate({ path, filename }),
    pendingPath: mutation.isPending ? mutation.variables.path : undefined,
    failure: mutation.isError ? downloadFailureText(mutation.error) : undefined,
  };
}
