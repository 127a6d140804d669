import { Button } from '@mantine/core';
import { Link } from 'react-router';

/** For a child's screen: opens the merge page for this child (entered twice in one family). */
export function MergeChildButton({ childId }: { childId: number }) {
  return (
    <Button component={Link} to={`/admin/students/merge?from=${childId}`} variant="default" size="xs">
      Merge with another child
    </Button>
  );
}

/** For a family (parent) screen: opens the merge page to choose the family to keep. */
export function MergeFamilyButton({ parentId }: { parentId: number }) {
  return (
    <Button component={Link} to={`/admin/students/merge?parent=${parentId}`} variant="default" size="xs">
      Merge into another family
    </Button>
  );
}
