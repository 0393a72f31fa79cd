/**
 * The child-process side of search-worker.ts (kept apart so a build process loads only what it
 * needs): answers the one input it is sent, then exits; exits too if the server goes away.
 */
export function serveSearchWorker<I, T>(work: (input: I) => Promise<T>): void {
  process.once('disconnect', () => process.exit(0));
  process.once('message', (input: I) => {
    work(input).then(
      (result) => process.send!(result as object, undefined, undefined, () => process.exit(0)),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}
