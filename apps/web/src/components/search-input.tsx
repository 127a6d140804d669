import { TextInput, type TextInputProps } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useEffect, useRef, useState } from 'react';
import { SearchIcon } from './icons';

interface SearchInputProps extends Omit<TextInputProps, 'value' | 'onChange'> {
  /** The applied search (from the URL). */
  value: string;
  /** Applies a search: after a pause in typing, or at once on Enter. */
  onSearch: (value: string) => void;
  /** Set to cancel a pending search when the caller clears it. */
  clearSignal?: number;
}

/** A search box that applies what is typed after a short pause, and follows the URL. */
export function SearchInput({ value, onSearch, clearSignal, ...props }: SearchInputProps) {
  const [text, setText] = useState(value);
  const apply = useDebouncedCallback((next: string) => onSearch(next), 400);
  // Back/forward or a cleared search changes the URL; the box follows (but keeps a trailing space
  // the user is still typing).
  useEffect(() => setText((current) => (current.trim() === value ? current : value)), [value]);
  const handledClear = useRef(clearSignal);
  useEffect(() => {
    if (clearSignal === handledClear.current) return;
    handledClear.current = clearSignal;
    apply.cancel();
    setText('');
  }, [clearSignal, apply]);

  return (
    <TextInput
      aria-label="Search"
      leftSection={<SearchIcon size={14} />}
      type="search"
      {...props}
      value={text}
      onChange={(event) => {
        setText(event.currentTarget.value);
        apply(event.currentTarget.value);
      }}
      onKeyDown={(event) => {
        if (event.key === 'Enter') {
          event.preventDefault();
          apply.cancel();
          onSearch(text);
        }
      }}
    />
  );
}
