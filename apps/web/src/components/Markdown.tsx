import ReactMarkdown, { type Components } from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';

// A task list's box is a disabled checkbox with no label, which a screen reader announces as an unnamed
// control; here it is a mark that says its state.
const components: Components = {
  input: ({ checked }) => (
    <span role="img" aria-label={checked ? 'done' : 'not done'}>
      {checked ? '☑' : '☐'}
    </span>
  ),
};

/**
 * Markdown people or the AI wrote (post-mortems, hand-off digests), shown as formatted text. GitHub's
 * flavour (tables, task lists); raw HTML is dropped and what remains goes through rehype-sanitize, so
 * nothing typed into a document can run script or restyle the console for whoever reads it next.
 */
export function Markdown({ children, label }: { children: string; label?: string }) {
  const rendered = (
    <ReactMarkdown remarkPlugins={[remarkGfm]} rehypePlugins={[rehypeSanitize]} components={components}>
      {children}
    </ReactMarkdown>
  );
  // A named one is a region a screen reader can jump to; an unnamed one is part of its container.
  return label ? (
    <section className="markdown" aria-label={label}>
      {rendered}
    </section>
  ) : (
    <div className="markdown">{rendered}</div>
  );
}
