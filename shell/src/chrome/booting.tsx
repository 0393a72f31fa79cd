/** Shown while the first route's guard chain runs. */
export function Booting() {
  return <div className="sch-loading" aria-busy="true" />;
}
