import type { AppConfig } from '../../config.js';

/**
 * `/settings` (contract §2.1): `null` members are omitted; on a Hugging Face Space the
 * huggingface block and the persistent-storage warning flag are added. The flag only says the
 * warning may show (hub-contract §6, default true); the browser shows it when storage is not
 * persistent, so an operator who accepts losing data can switch it off.
 */
export function readEnvironmentSettings(config: Pick<AppConfig, 'shareYourProgress' | 'space'>) {
  const argilla: Record<string, unknown> = { share_your_progress_enabled: config.shareYourProgress };
  const space = config.space;
  if (!space) return { argilla };
  argilla.show_huggingface_space_persistent_storage_warning = space.showStorageWarning;
  const [author, repo] = space.id.split('/');
  const huggingface = Object.fromEntries(
    Object.entries({
      space_id: space.id,
      space_title: space.title,
      space_subdomain: space.subdomain,
      space_host: space.host,
      space_repo_name: repo,
      space_author_name: space.authorName ?? author,
      space_persistent_storage_enabled: space.persistentStorage,
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
