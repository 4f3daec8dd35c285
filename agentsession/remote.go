package agentsession

// remoteAtStart starts the shared remote's sync at session start
// (docs/remote.md §5): detached, so the agent never waits for the
// network; bounded by the sync itself (skillrepo remote sync
// --background). Without a starter (SKILLREPO_WORKER=off: no background
// processes) it is left to the person.
func (h *hookRun) remoteAtStart() {
	if !h.lib.Config.Remote.Enabled() {
		return
	}
	if h.opts.StartRemote == nil {
		h.rep.notef("remote sync skipped (no background processes): run 'skillrepo remote sync'")
		return
	}
	if err := h.opts.StartRemote(h.lib); err != nil {
		h.rep.notef("remote sync: %v", err)
		return
	}
	h.rep.notef("started the remote sync")
}
