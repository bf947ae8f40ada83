"""The language server (`dtypeguard lsp`): pygls 2.x over stdio (or TCP for debugging).

`server` only wires: each LSP method and command goes to a named handler, a top-level function
taking the `session` (state shared by the handlers) and the params, in the module of its
concern: `lifecycle` (initialize, shutdown, exit), `sync` (did open/change/close of files and
notebooks), `configuration` (settings changes), `diagnostics` (push and pull), `hover`, `inlay`,
`actions` (code actions and the fix-all/setup-block commands), `lens` (verify lenses), `verify`
(the verify command), `fixverify` (fix and verify: the safe fixes, applied if the fixed buffer
runs). Below the session and free of handlers: `documents` (debounced off-loop
analysis, versions), `notebooks` (cells <-> script), `verifier` (verify runs and results),
`settings` (editor settings), `convert` (engine positions and findings -> LSP), `background`
(daemon-thread jobs). docs/lsp-contract.md has the table of methods and handlers.
"""
