// `pnpm lint:self-contained`: the repository stands on its own. No tracked file may read a folder beside
// the checkout or cite a document that is not in the repository: the rules themselves live in docs/.
import { spawnSync } from 'node:child_process';

const forbidden = [
  { pattern: /\.\.\/shared\//, why: 'reads a folder beside the checkout' },
  {
    pattern: /\b(CONTRACT|ARCHITECTURE|DEVELOPERS)\.md\b|slack-contract\.md/,
    why: 'cites a document outside the repository',
  },
  { pattern: /\b[Ss]pec §\s?[0-9]/, why: 'cites a section of a specification outside the repository' },
];

// git grep over the tracked files, this one excepted (it names the patterns it looks for).
const result = spawnSync(
  'git',
  [
    'grep',
    '-nIE',
    forbidden.map(({ pattern }) => pattern.source).join('|'),
    '--',
    '.',
    ':!scripts/check-self-contained.mjs',
  ],
  { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
);
if (result.status !== 0 && result.status !== 1) {
  console.error(`git grep failed: ${result.stderr}`);
  process.exit(2);
}
const hits = result.stdout.split('\n').filter(Boolean);
for (const hit of hits) {
  const text = hit.split(':').slice(2).join(':');
  const rule = forbidden.find(({ pattern }) => pattern.test(text));
  console.error(`${hit.split(':').slice(0, 2).join(':')}: ${rule?.why ?? 'forbidden reference'}`);
}
if (hits.length > 0) {
  console.error(
    `\n${hits.length} line(s) point outside the repository: write the rule, or point into docs/.`,
  );
  process.exit(1);
}
console.log('✔ self-contained: no tracked file reads or cites anything outside the repository');
