import { defineConfig } from 'drizzle-kit';

// Tables live beside their feature (`*.tables.ts`); drizzle-kit diffs them into SQL migrations.
export default defineConfig({
  dialect: 'postgresql',
  schema: ['./src/platform/**/*.tables.ts', './src/features/**/*.tables.ts'],
  out: './src/db/migrations',
  casing: 'snake_case',
});
