"""The language server (`dtypeguard lsp`): pygls 2.x over stdio (or TCP for debugging).

Modules: `server` (wiring and handlers), `documents` (debounced off-loop analysis, versions),
`convert` (engine positions and findings -> LSP), `actions` (quick fixes, fix-all, setup block,
suppressions), `lens` (verify lenses and the verify command), `settings` (editor settings).
"""
