/**
 * `/settings` (contract §2.1): `null` members are omitted; on a Hugging Face Space the
 * huggingface block and the persistent-storage warning flag are added. The flag only says the
 * warning may show (hub-contract §6, default true); the browser shows it when storage is not
 * persistent, so an operator who accepts losing data can switch it off.
 */
export function readEnvironmentSettings(env: NodeJS.ProcessEnv) {
  const argilla: Record<string, unknown> = {
    share_your_progress_enabled: (env.SCHOLIA_SHARE_YOUR_PROGRESS ?? 'false') === 'true',
  };
  if (!env.SPACE_ID) return { argilla };
  const persistentStorage = env.PERSISTANT_STORAGE_ENABLED === 'true' || env.PERSISTENT_STORAGE_ENABLED === 'true';
  const warningSetting = env.SCHOLIA_SHOW_SPACE_STORAGE_WARNING ?? env.ARGILLA_SHOW_HUGGINGFACE_SPACE_PERSISTENT_STORAGE_WARNING;
  argilla.show_huggingface_space_persistent_storage_warning = (warningSetting ?? 'true') !== 'false';
  const [author, repo] = env.SPACE_ID.split('/');
  const huggingface = Object.fromEntries(
    Object.entries({
      space_id: env.SPACE_ID,
      space_title: env.SPACE_TITLE,
      space_subdomain: env.SPACE_SUBDOMAIN,
      space_host: env.SPACE_HOST,
      space_repo_name: repo,
      space_author_name: env.SPACE_AUTHOR_NAME ?? author,
      space_persistent_storage_enabled: persistentStorage,
    }).filter(([, value]) => value !== undefined && value !== null),
  );
  return { argilla, huggingface };
}

/**
 * [ours] Where the browser reaches the Hub and the dataset viewer: the import screens call the
 * viewer directly (product spec §7), and tests point both at a fake. Under a key of its own so
 * the Argilla-shaped members stay as the contract has them.
 */
export function readHubEndpoints(config: { hubUrl: string; datasetsServerUrl: string }) {
  return { hub_url: config.hubUrl, datasets_server_url: config.datasetsServerUrl };
}
