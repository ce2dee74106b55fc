// Builds the dashboard (web/) into dist/web, which the hub serves at `/` next to its API at `/api`.
import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  plugins: [react()],
  build: { outDir: '../dist/web', emptyOutDir: true },
})
