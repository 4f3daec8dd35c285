package usage

import "testing"

// FrontmatterName reads the name a YAML loader reads (the reference's
// skill_view keys usage by it): an anchor or tag before the value is not
// part of it.
func TestFrontmatterNameSkipsAnchorsAndTags(t *testing.T) {
	tests := map[string]string{
		"---\nname: fm-test\n---\n":            "fm-test",
		"---\nname: &n fm-test\n---\n":         "fm-test",
		"---\nname: !!str fm-test\n---\n":      "fm-test",
		"---\nname: &n !!str 'fm-test'\n---\n": "fm-test",
		"---\nname: \"quoted\"\n---\n":         "quoted",
		"---\nname: &dangling\n---\n":          "",
		"no fence\nname: x\n":                  "",
	}
	for in, want := range tests {
		if got := FrontmatterName([]byte(in)); got != want {
			t.Errorf("FrontmatterName(%q) = %q, want %q", in, got, want)
		}
	}
}
