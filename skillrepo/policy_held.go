package skillrepo

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/skillrepo/skillrepo/internal/statefile"
)

// A create held for its files (docs/architecture.md §2.1). Hermes' own
// hint teaches a model to create a skill and then add the files its
// SKILL.md links with write_file, one call each; a write is verified where
// it lands, so the create alone fails the lint gate (a dangling link). A
// writer with a session (Writer.Session) gets the two-call flow without
// the library ever resting on a failing tree: a batch that creates one
// skill and fails the gate only for links to files of that skill that are
// not there yet is held — nothing is written, the batch is kept in a state
// file of the session — and lands, in one commit, with the session's next
// write that names the skill (its write_file). A held create that never
// completes is reported: by the door at the session's end (EndHeld), or by
// the next write of the session once it is older than HeldTTL.

// HeldTTL is how long a held create waits for its files. A model writes
// them in its next calls; a session that ends without saying so (a killed
// agent) leaves its file to be reported once this has passed.
const HeldTTL = 24 * time.Hour

// HeldCreate is a create the write policy holds for the files it links.
type HeldCreate struct {
	// Name is the skill's name; Dir its folder in the library.
	Name string `json:"name"`
	Dir  string `json:"dir"`
	// Ops is the held batch: the create first, then any other operation
	// of its call on the same skill.
	Ops []Op `json:"ops"`
	// Missing are the lint errors that held it ("references/x.md": link
	// target … does not exist), one line each.
	Missing []string  `json:"missing"`
	Since   time.Time `json:"since"`
}

// heldFile is one session's held creates.
type heldFile struct {
	Version int          `json:"version"`
	Session string       `json:"session"`
	Creates []HeldCreate `json:"creates"`
}

const heldVersion = 1

// heldStore is the state file of w's held creates, keyed by its origin
// and session; ok is false for a writer without a session.
func (l *Library) heldStore(w Writer) (statefile.File[heldFile], string, bool) {
	if w.Session == "" {
		return statefile.File[heldFile]{}, "", false
	}
	key := cmpOrigin(w.Provenance.Origin) + "/" + w.Session
	sum := sha256.Sum256([]byte(key))
	// One definition of the file for the writer and the sweep: a batch
	// written under one limit must read back under the other.
	return heldStateFile(filepath.Join(l.State().Held(), hex.EncodeToString(sum[:12])+".json")), key, true
}

// heldStateFile is a session's file of held creates: a held batch is at
// most MaxBatchOps operations of files a skill may hold.
func heldStateFile(p string) statefile.File[heldFile] {
	return statefile.File[heldFile]{Path: p, Limit: 64 << 20, Version: heldVersion, Perm: 0o600, Reset: true}
}

func cmpOrigin(o string) string {
	if o == "" {
		return OriginUser
	}
	return o
}

// Held is the folder of the creates held for their files, one file per
// writer session.
func (s State) Held() string { return filepath.Join(s.dir, "held") }

// Held are the creates the policy's writer holds and still waits for,
// oldest first (none for a writer without a session).
func (p *Policy) Held() ([]HeldCreate, error) {
	all, err := p.heldAll()
	var live []HeldCreate
	for _, h := range all {
		if p.l.now().Sub(h.Since) <= HeldTTL {
			live = append(live, h)
		}
	}
	return live, err
}

// heldAll are the writer's held creates, expired ones included.
func (p *Policy) heldAll() ([]HeldCreate, error) {
	f, _, ok := p.l.heldStore(p.w)
	if !ok {
		return nil, nil
	}
	v, err := f.Load()
	var ce *statefile.CorruptError
	if errors.Is(err, fs.ErrNotExist) || (errors.As(err, &ce) && ce.SetAside != "") {
		return nil, nil // a corrupt file is set aside for a person, and the session starts afresh
	}
	if err != nil {
		return nil, fmt.Errorf("held creates: %w", err)
	}
	return v.Creates, nil
}

// ExpireHeld removes, from every session's file, the held creates that
// waited past HeldTTL (a session that ended without saying so) and
// returns them, for a door to report; a door calls it as a session starts.
func (l *Library) ExpireHeld() ([]HeldCreate, error) {
	entries, err := os.ReadDir(l.State().Held())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("held creates: %w", err)
	}
	var out []HeldCreate
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		f := heldStateFile(filepath.Join(l.State().Held(), e.Name()))
		v, err := f.Update(func(h *heldFile) error {
			kept := h.Creates[:0]
			for _, c := range h.Creates {
				if l.now().Sub(c.Since) > HeldTTL {
					out = append(out, c)
				} else {
					kept = append(kept, c)
				}
			}
			h.Creates = kept
			return nil
		})
		if err != nil {
			return out, fmt.Errorf("held creates: %w", err)
		}
		if len(v.Creates) == 0 {
			_ = os.Remove(f.Path)
		}
	}
	return out, nil
}

// EndHeld ends the writer's session for held creates: it removes and
// returns those still held, for the door to report (they never landed).
func (p *Policy) EndHeld() ([]HeldCreate, error) {
	var out []HeldCreate
	err := p.updateHeld(func(h *heldFile) {
		out, h.Creates = h.Creates, nil
	})
	return out, err
}

// updateHeld changes the writer's held creates under the file's lock; a
// file left with none is removed.
func (p *Policy) updateHeld(fn func(*heldFile)) error {
	f, key, ok := p.l.heldStore(p.w)
	if !ok {
		return nil
	}
	v, err := f.Update(func(h *heldFile) error {
		h.Version, h.Session = heldVersion, key
		fn(h)
		return nil
	})
	if err != nil {
		return fmt.Errorf("held creates: %w", err)
	}
	if len(v.Creates) == 0 {
		if err := os.Remove(f.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("held creates: %w", err)
		}
	}
	return nil
}

// joinHeld puts before ops the held batch of every held skill an
// operation names, so the files a create waited for land with it. A create
// of a held skill starts it over: its held batch is not joined. It
// returns the batch and the held creates joined; expired are the held
// creates past HeldTTL, which are never joined.
func joinHeld(held []HeldCreate, ops []Op, now time.Time) (joined []Op, used, expired []HeldCreate) {
	creates := map[string]bool{}
	for _, op := range ops {
		if op.Action == ActionCreate {
			creates[op.Name] = true
		}
	}
	byName := map[string]HeldCreate{}
	for _, h := range held {
		if now.Sub(h.Since) > HeldTTL {
			expired = append(expired, h)
			continue
		}
		byName[h.Name] = h
	}
	for _, op := range ops {
		h, ok := byName[op.Name]
		if !ok || creates[op.Name] {
			continue
		}
		delete(byName, op.Name)
		used = append(used, h)
		joined = append(joined, h.Ops...)
	}
	return append(joined, ops...), used, expired
}

// holdable is the held create of a batch the gate refused with err, when
// the batch creates one skill (every operation is on it, the create first)
// and the only errors are links or paths to files of that skill that are
// not there yet; nil when the refusal stands.
func holdable(err error, ops []Op) *HeldCreate {
	var ge *GateError
	if !errors.As(err, &ge) || len(ops) == 0 || ops[0].Action != ActionCreate {
		return nil
	}
	name := ops[0].Name
	for i, op := range ops {
		if op.Name != name || (i > 0 && op.Action == ActionCreate) {
			return nil
		}
	}
	dir := name
	if c := strings.Trim(ops[0].Category, "/"); c != "" {
		dir = path.Join(c, name)
	}
	var missing []string
	for _, f := range ge.Found.Findings {
		if !linkRules[f.Rule] || f.Skill != dir {
			return nil
		}
		missing = append(missing, strings.TrimPrefix(f.Path, dir+"/")+": "+f.Message)
	}
	if len(missing) == 0 {
		return nil
	}
	sort.Strings(missing)
	return &HeldCreate{Name: name, Dir: dir, Ops: append([]Op(nil), ops...), Missing: missing}
}
