package overlap

import (
	"bytes"
	"fmt"
	"math/rand"
	"reflect"
	"testing"
)

// storeOf writes skills as a stored index and opens it.
func storeOf(t testing.TB, skills []Skill) (*Stored, []byte) {
	t.Helper()
	var buf bytes.Buffer
	docs := make([]Doc, len(skills))
	for i, s := range skills {
		docs[i] = Doc{Key: "k/" + s.Name, Name: s.Name, Terms: Terms(s)}
	}
	if err := WriteStore(&buf, docs); err != nil {
		t.Fatal(err)
	}
	st, err := OpenStored(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	return st, buf.Bytes()
}

// TestStoredMatchesIndex checks a stored index, with skills taken out and
// put in since it was written, answers every query as NewIndex over the
// same skills does: the planted families and their false friends in a
// library of 3,000, through rounds of random changes, and a file written
// from the changed set.
func TestStoredMatchesIndex(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	lib := append(filler(3000, 5), skillsOf(dockerCleanup, pgBloat, gateway, prFamily, falseFriends)...)
	st, _ := storeOf(t, lib[:2500])
	set := map[string]Skill{}
	var order []string
	for _, s := range lib[:2500] {
		set[s.Name] = s
		order = append(order, s.Name)
	}
	spare := lib[2500:]
	queries := append(skillsOf(dockerCleanup, pgBloat, gateway, prFamily, falseFriends), lib[10], lib[2600])
	reworded := skillsOf(dockerCleanup)[0]
	reworded.Name = "docker-space-reclaim"
	queries = append(queries, reworded)
	matches := 0
	for round := 0; round < 12; round++ {
		var gone []string
		var docs []Doc
		for k := 0; k < 40; k++ {
			switch i := rng.Intn(len(order)); rng.Intn(3) {
			case 0: // out
				if _, ok := set[order[i]]; ok {
					gone = append(gone, "k/"+order[i])
					delete(set, order[i])
				}
			case 1: // in (a skill not in the set, or back again)
				s := spare[rng.Intn(len(spare))]
				if _, ok := set[s.Name]; !ok {
					set[s.Name] = s
					order = append(order, s.Name)
					docs = append(docs, Doc{Key: "k/" + s.Name, Name: s.Name, Terms: Terms(s)})
				}
			case 2: // rewritten
				if s, ok := set[order[i]]; ok {
					s.Body += fmt.Sprintf("\nAlso: %s extra words round %d", s.Name, round)
					set[s.Name] = s
					docs = append(docs, Doc{Key: "k/" + s.Name, Name: s.Name, Terms: Terms(s)})
				}
			}
		}
		if err := st.Change(gone, docs); err != nil {
			t.Fatal(err)
		}
		var cur []Skill
		seen := map[string]bool{}
		for _, name := range order {
			if s, ok := set[name]; ok && !seen[name] {
				seen[name] = true
				cur = append(cur, s)
			}
		}
		if st.Len() != len(cur) {
			t.Fatalf("round %d: stored set has %d skills, want %d", round, st.Len(), len(cur))
		}
		ix := NewIndex(cur)
		check := func(st *Stored, what string) {
			for _, q := range queries {
				for _, th := range []float64{DuplicateBar, DefaultThreshold, 0.2} {
					want := ix.Query(q, th)
					got, err := st.Query(q, th)
					if err != nil {
						t.Fatal(err)
					}
					if len(want) == 0 {
						want = nil
					}
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("round %d, %s, %s at %.2f:\nstored %v\nindex  %v", round, what, q.Name, th, got, want)
					}
					matches += len(got)
				}
			}
		}
		check(st, "with changes")
		if round%4 == 3 { // written anew from the changed set
			all, err := st.Docs()
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := WriteStore(&buf, all); err != nil {
				t.Fatal(err)
			}
			if st, err = OpenStored(bytes.NewReader(buf.Bytes()), int64(buf.Len())); err != nil {
				t.Fatal(err)
			}
			check(st, "rewritten")
		}
	}
	if matches == 0 {
		t.Fatal("no query matched anything: the comparison proves nothing")
	}
}

// DuplicateBar is the write-time duplicate check's threshold
// (skillrepo.DuplicateThreshold), for the test.
const DuplicateBar = 0.48

// TestStoredRefusesDamage checks every damage to a stored index is an
// error, never a quiet answer.
func TestStoredRefusesDamage(t *testing.T) {
	lib := append(filler(300, 2), skillsOf(dockerCleanup, falseFriends)...)
	_, good := storeOf(t, lib)
	for _, at := range []int{0, 5, len(storeMagic) + 2, len(storeMagic) + 40, len(good) / 3, len(good) / 2, len(good) - 3} {
		b := bytes.Clone(good)
		b[at] ^= 0x5a
		st, err := OpenStored(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			continue
		}
		// The tables passed: the flipped byte is in a list, which the
		// full read or a query reading it must refuse.
		_, err = st.Docs()
		for _, s := range lib {
			if err == nil {
				_, err = st.Query(s, 0.1)
			}
		}
		if err == nil {
			t.Errorf("byte %d flipped: no error", at)
		}
	}
	for _, n := range []int{0, 10, len(good) / 2, len(good) - 1} {
		if _, err := OpenStored(bytes.NewReader(good[:n]), int64(n)); err == nil {
			t.Errorf("truncated to %d bytes: no error", n)
		}
	}
}

// BenchmarkStoredQuery10k is the write-time check on a stored index: one
// new skill against 10,000, the file in memory.
func BenchmarkStoredQuery10k(b *testing.B) {
	st, _ := storeOf(b, benchLibrary(10000))
	q := skillsOf(dockerCleanup)[1]
	q.Name = "docker-space-reclaim"
	b.ResetTimer()
	for b.Loop() {
		if m, err := st.Query(q, DefaultThreshold); err != nil || len(m) == 0 {
			b.Fatal("the copy was not found", err)
		}
	}
}
