import { useState } from 'react';

/**
 * A form's draft of a value the URL holds: edited freely, and replaced when the URL's value changes
 * (a link followed, Back pressed). Reset during render, not by remounting the form, so the focus
 * stays on the button that was pressed.
 */
export function useSyncedDraft<T>(source: T, sourceKey: string, toDraft: (source: T) => T = (value) => value) {
  const [draft, setDraft] = useState<T>(() => toDraft(source));
  const [syncedKey, setSyncedKey] = useState(sourceKey);
  if (syncedKey !== sourceKey) {
    setSyncedKey(sourceKey);
    setDraft(toDraft(source));
  }
  return [draft, setDraft] as const;
}
