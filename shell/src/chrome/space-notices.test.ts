import { describe, expect, it } from 'vitest';
import { shouldWarnAboutStorage } from './space-notices.js';

const space = (warning: boolean, persistent: boolean) => ({
  argilla: { share_your_progress_enabled: false, show_huggingface_space_persistent_storage_warning: warning },
  huggingface: { space_id: 'alice/space', space_persistent_storage_enabled: persistent },
});

describe('shouldWarnAboutStorage', () => {
  it('warns on a space whose storage is not persistent when the server asks for it', () => {
    expect(shouldWarnAboutStorage(space(true, false) as never)).toBe(true);
  });
  it('stays quiet with persistent storage, without the flag, or off spaces', () => {
    expect(shouldWarnAboutStorage(space(true, true) as never)).toBe(false);
    expect(shouldWarnAboutStorage(space(false, false) as never)).toBe(false);
    expect(shouldWarnAboutStorage({ argilla: { share_your_progress_enabled: false } } as never)).toBe(false);
  });
});
