import '@mantine/tiptap/styles.css';
import { Button, Menu } from '@mantine/core';
import { Link, RichTextEditor } from '@mantine/tiptap';
import { useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { MASS_MAIL_PLACEHOLDERS } from '@tumble/contracts/communications';

/**
 * The mail's body: Tiptap with Mantine's toolbar and an "Insert" menu that puts a placeholder
 * ({parent_first_name} …) at the cursor. The server sanitises the HTML when the mail is saved.
 */
export function MassMailEditor({
  value,
  onChange,
  invalid,
}: {
  value: string;
  onChange: (html: string) => void;
  invalid?: boolean;
}) {
  const editor = useEditor({
    extensions: [StarterKit.configure({ link: false }), Link.configure({ openOnClick: false })],
    content: value,
    shouldRerenderOnTransaction: false,
    editorProps: {
      attributes: {
        'aria-label': 'Message',
        'aria-multiline': 'true',
        role: 'textbox',
        style: 'min-height: 220px',
        ...(invalid ? { 'aria-invalid': 'true' } : {}),
      },
    },
    onUpdate: ({ editor: current }) => onChange(current.isEmpty ? '' : current.getHTML()),
  });

  return (
    <RichTextEditor
      editor={editor}
      styles={{ root: invalid ? { borderColor: 'var(--mantine-color-error)' } : undefined }}
    >
      <RichTextEditor.Toolbar sticky={false}>
        <RichTextEditor.ControlsGroup>
          <RichTextEditor.Bold />
          <RichTextEditor.Italic />
          <RichTextEditor.Underline />
          <RichTextEditor.ClearFormatting />
        </RichTextEditor.ControlsGroup>
        <RichTextEditor.ControlsGroup>
          <RichTextEditor.H2 />
          <RichTextEditor.H3 />
          <RichTextEditor.BulletList />
          <RichTextEditor.OrderedList />
        </RichTextEditor.ControlsGroup>
        <RichTextEditor.ControlsGroup>
          <RichTextEditor.Link />
          <RichTextEditor.Unlink />
        </RichTextEditor.ControlsGroup>
        <Menu position="bottom-start" withinPortal>
          <Menu.Target>
            <Button size="compact-sm" variant="default">
              Insert placeholder
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {MASS_MAIL_PLACEHOLDERS.map((p) => (
              <Menu.Item
                key={p.name}
                onClick={() => editor?.chain().focus().insertContent(`{${p.name}}`).run()}
              >
                {p.label} <code>{`{${p.name}}`}</code>
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      </RichTextEditor.Toolbar>
      <RichTextEditor.Content />
    </RichTextEditor>
  );
}
