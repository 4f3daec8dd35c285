package secrets

import "testing"

// Added finds the secrets a new version of a file adds: a key the
// file held already is not the write's (history has it), a new one is,
// and a lower-cased private key block is one.
func TestAdded(t *testing.T) {
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
		got := Added(tt.before, tt.after)
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
