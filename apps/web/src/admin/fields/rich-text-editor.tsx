import '@mantine/tiptap/styles.css';
import { Link, RichTextEditor } from '@mantine/tiptap';
import { useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect, useState } from 'react';
import { RICH_TEXT_HEIGHT_PX } from './rich-text-height';

interface RichTextAreaProps {
  value: string;
  onChange?: (html: string) => void;
  /** The field's label, as the editable area's accessible name. */
  label: string;
  invalid?: boolean;
  id?: string;
}

/**
 * Tiptap with Mantine's toolbar. Loaded on demand (a lazy chunk), so pages without rich text never
 * download the editor. The server sanitizes the HTML when it is saved; the editor's schema keeps
 * only the markup it knows when it shows stored HTML.
 */
function attributesOf(label: string, invalid: boolean | undefined, id: string | undefined, focused: boolean) {
  // The editable area draws no focus indicator of its own: the field's 2px ring while it has the
  // focus, as Mantine's other fields and buttons show (WCAG 2.4.7).
  const ring = focused
    ? '; outline: 2px solid var(--mantine-primary-color-filled); outline-offset: -2px'
    : '';
  return {
    'aria-label': label,
    'aria-multiline': 'true',
    role: 'textbox',
    // The whole 400px area takes clicks, not only the first line.
    style: `min-height: ${RICH_TEXT_HEIGHT_PX - 32}px${ring}`,
    ...(id ? { id } : {}),
    ...(invalid ? { 'aria-invalid': 'true' } : {}),
  };
}

export default function RichTextArea({ value, onChange, label, invalid, id }: RichTextAreaProps) {
  const [focused, setFocused] = useState(false);
  const editor = useEditor({
    extensions: [StarterKit.configure({ link: false }), Link.configure({ openOnClick: false })],
    content: value,
    shouldRerenderOnTransaction: false,
    editorProps: { attributes: attributesOf(label, invalid, id, false) },
    onFocus: () => setFocused(true),
    onBlur: () => setFocused(false),
    onUpdate: ({ editor: current }) => onChange?.(current.isEmpty ? '' : current.getHTML()),
  });

  // A value replaced from outside (a form reset) is shown; the editor's own typing is not echoed back.
  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    const current = editor.isEmpty ? '' : editor.getHTML();
    if (value !== current) editor.commands.setContent(value, { emitUpdate: false });
  }, [editor, value]);

  // A field error marks the editable area too.
  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    editor.setOptions({ editorProps: { attributes: attributesOf(label, invalid, id, focused) } });
  }, [editor, label, invalid, id, focused]);

  return (
    <RichTextEditor
      editor={editor}
      styles={{
        root: invalid ? { borderColor: 'var(--mantine-color-error)' } : undefined,
        content: { height: RICH_TEXT_HEIGHT_PX, overflowY: 'auto' },
      }}
    >
      <RichTextEditor.Toolbar sticky={false}>
        <RichTextEditor.ControlsGroup>
          <RichTextEditor.Bold />
          <RichTextEditor.Italic />
          <RichTextEditor.Underline />
          <RichTextEditor.Strikethrough />
          <RichTextEditor.ClearFormatting />
        </RichTextEditor.ControlsGroup>
        <RichTextEditor.ControlsGroup>
          <RichTextEditor.H2 />
          <RichTextEditor.H3 />
          <RichTextEditor.H4 />
        </RichTextEditor.ControlsGroup>
        <RichTextEditor.ControlsGroup>
          <RichTextEditor.BulletList />
          <RichTextEditor.OrderedList />
          <RichTextEditor.Blockquote />
          <RichTextEditor.Hr />
        </RichTextEditor.ControlsGroup>
        <RichTextEditor.ControlsGroup>
          <RichTextEditor.Link />
          <RichTextEditor.Unlink />
        </RichTextEditor.ControlsGroup>
        <RichTextEditor.ControlsGroup>
          <RichTextEditor.Undo />
          <RichTextEditor.Redo />
        </RichTextEditor.ControlsGroup>
      </RichTextEditor.Toolbar>
      <RichTextEditor.Content />
    </RichTextEditor>
  );
}
