export function BatonMark({ size = 22 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" className="baton-mark">
      <rect x="1" y="1" width="22" height="22" rx="6" fill="var(--brand)" />
      <circle cx="7.5" cy="12" r="2.6" fill="#fff" />
      <circle cx="16.5" cy="7.5" r="2.1" fill="#fff" opacity="0.9" />
      <circle cx="16.5" cy="16.5" r="2.1" fill="#fff" opacity="0.9" />
      <path d="M9.8 11 L14.6 8.3 M9.8 13 L14.6 15.7" stroke="#fff" strokeWidth="1.6" strokeLinecap="round" />
    </svg>
  );
}
