import { useParams } from 'react-router';
import { PlaceholderPage } from '../components/placeholder-page';

/** 'term-classes' → 'Term classes'. */
export function resourceLabel(resource: string): string {
  const words = resource.replace(/[-_]+/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : 'Admin';
}

/** /admin/:resource/*: every admin resource, until the resource engine renders them. */
export function ResourcePlaceholderPage() {
  const { resource = '' } = useParams();
  return <PlaceholderPage title={resourceLabel(resource)} issue="Resource engine" />;
}
