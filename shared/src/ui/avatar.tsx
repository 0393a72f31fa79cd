/** Sizes of spec §2, in px. */
export const AVATAR_SIZES = { MINI: 26, SMALL: 34, MEDIUM: 45 } as const;
export type AvatarSize = keyof typeof AVATAR_SIZES;

/** First two letters of the username, upper-cased (spec §2). */
export function avatarInitials(username: string): string {
  return [...username.trim()].slice(0, 2).join('').toUpperCase();
}

export interface AvatarProps {
  username: string;
  size?: AvatarSize;
}

export function Avatar({ username, size = 'SMALL' }: AvatarProps) {
  const px = AVATAR_SIZES[size];
  return (
    <span className="sch-avatar" aria-hidden="true" data-size={size}
      style={{ width: px, height: px, lineHeight: `${px}px`, fontSize: Math.round(px * 0.4) }}>
      {avatarInitials(username)}
    </span>
  );
}
