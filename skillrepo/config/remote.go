package config

import (
	"errors"
	"fmt"
	"strings"
)

// Remote is the remote: section: how a team shares the library
// through its git host (docs/remote.md, docs/config.md). Every mode is off
// by default, so a library without the section never touches the network
// on its own.
type Remote struct {
	// Name is the git remote ("origin").
	Name string `yaml:"name" check:"remote"`
	// Proposals: push publishes every proposal a review or the curator
	// leaves (write approval on) as the branch proposals/<id> on the
	// remote; off keeps them here.
	Proposals RemoteProposals `yaml:"proposals" check:"oneof=push|off"`
	// Main is what happens to main: pull brings the remote's main in at
	// session start (fast-forward, or a three-way merge); push sends this
	// clone's main out after each write (a lost race fetches, merges and
	// retries); both does both; off leaves main to the person.
	Main RemoteMain `yaml:"main" check:"oneof=pull|push|both|off"`
	// PullRequest opens a pull request for each published proposal with
	// the host's own command-line program, when it is installed and
	// logged in: gh (GitHub) or glab (GitLab); off opens none.
	PullRequest RemotePullRequest `yaml:"pull_request" check:"oneof=off|gh|glab"`
}

// RemoteProposals is remote.proposals.
type RemoteProposals string

// RemoteMain is remote.main.
type RemoteMain string

// RemotePullRequest is remote.pull_request.
type RemotePullRequest string

// The values of the remote: section.
const (
	ProposalsPush RemoteProposals = "push"
	ProposalsOff  RemoteProposals = "off"

	MainPull RemoteMain = "pull"
	MainPush RemoteMain = "push"
	MainBoth RemoteMain = "both"
	MainOff  RemoteMain = "off"

	PullRequestOff  RemotePullRequest = "off"
	PullRequestGH   RemotePullRequest = "gh"
	PullRequestGLab RemotePullRequest = "glab"
)

// DefaultRemote is the remote: section a library without one has.
func DefaultRemote() Remote {
	return Remote{Name: "origin", Proposals: ProposalsOff, Main: MainOff, PullRequest: PullRequestOff}
}

// Pulls reports whether the remote's main is brought in.
func (m RemoteMain) Pulls() bool { return m == MainPull || m == MainBoth }

// Pushes reports whether this clone's main is sent out.
func (m RemoteMain) Pushes() bool { return m == MainPush || m == MainBoth }

// Publishes reports whether proposals are pushed.
func (c Remote) Publishes() bool { return c.Proposals == ProposalsPush }

// Enabled reports whether anything of the section reaches the remote.
func (c Remote) Enabled() bool { return c.Publishes() || c.Main != MainOff }

// checkRemoteName accepts what git accepts as a remote's name and can be
// passed to git as one argument: no whitespace, not an option, not a URL
// or path (those would make every clone push somewhere of its own).
func checkRemoteName(name string) (string, error) {
	switch {
	case name == "":
		return "", errors.New("want a remote's name such as origin, got nothing")
	case strings.HasPrefix(name, "-"):
		return "", fmt.Errorf("%q starts with '-'", name)
	case strings.ContainsAny(name, " \t\n:\\"), strings.Contains(name, ".."), strings.HasPrefix(name, "/"), strings.HasSuffix(name, "/"):
		return "", &hintedProblem{msg: fmt.Sprintf("%q is not a remote's name", name),
			hint: "remote.name is a name such as origin, as 'git remote' lists it (add one with 'git remote add origin <url>')"}
	}
	return name, nil
}
