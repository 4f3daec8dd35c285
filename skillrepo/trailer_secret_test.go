package skillrepo

import (
	"context"
	"errors"
	"strings"
	"testing"
)

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
