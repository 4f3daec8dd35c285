package skillrepo

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// SecretsAdded finds the secrets a new version of a file adds: a key the
// file held already is not the write's (history has it), a new one is,
// and a lower-cased private key block is one.
func TestSecretsAdded(t *testing.T) {
	key := "AKIA2E0A8F3B244C9986"
	tests := []struct {
		name, before, after string
		want                []string
	}{
		{"new key", "notes\n", "notes\n" + key + "\n", []string{"AWS access key id"}},
		{"key already there", key + "\n", key + "\nmore notes\n", nil},
		{"a second key", key + "\n", key + "\nAKIA9F3B244C99862E0A\n", []string{"AWS access key id"}},
		{"lower-case private key", "", "-----begin openssh private key-----\n", []string{"private key block"}},
		{"documented example", "", "AKIAIOSFODNN7EXAMPLE\n", nil},
	}
	for _, tt := range tests {
		got := SecretsAdded(tt.before, tt.after)
		if len(got) != len(tt.want) {
			t.Errorf("%s: %+v, want %v", tt.name, got, tt.want)
			continue
		}
		for i, f := range got {
			if f.Kind != tt.want[i] {
				t.Errorf("%s: kind %q, want %q", tt.name, f.Kind, tt.want[i])
			}
		}
	}
}

// Provenance fields are scanned like content (issue 40 item 10): a token
// as a session id, a client's version or a model is refused, for a person
// too, and nothing is written.
func TestSecretInProvenanceRefused(t *testing.T) {
	l, env := newTestLibrary(t)
	head := rev(t, l, env, "main")
	token := "ghp_" + strings.Repeat("A1b2C3d4", 4) + "x9Z8"
	for _, p := range []Provenance{
		{Origin: OriginUser, SessionID: token},
		{Origin: OriginForeground, Agent: "claude-code/" + token},
		{Origin: OriginUser, Model: token},
	} {
		_, err := l.apply(context.Background(), applyOptions{Provenance: p, Ops: []Op{{Action: ActionPatch, Name: "ci-debugging", OldString: strp("Pitfalls"), NewString: strp("Traps")}}})
		var re *RefusedError
		if !errors.As(err, &re) || re.Guard != GuardSecret || !strings.Contains(err.Error(), "trailer") {
			t.Errorf("%+v: %v", p, err)
		}
	}
	if now := rev(t, l, env, "main"); now != head {
		t.Errorf("main moved: %s", now)
	}
}
