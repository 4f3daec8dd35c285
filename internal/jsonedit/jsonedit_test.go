package jsonedit

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestEdits(t *testing.T) {
	group := map[string]any{"hooks": []any{map[string]any{"type": "command", "command": "x"}}}
	for _, tc := range []struct {
		name string
		in   string
		edit func([]byte) ([]byte, error)
		want string
	}{
		{"set in an empty document object", "{}\n",
			func(d []byte) ([]byte, error) { return Set(d, []string{"hooks", "Stop"}, []any{group}) },
			"{\n  \"hooks\": {\n    \"Stop\": [\n      {\n        \"hooks\": [\n          {\n            \"command\": \"x\",\n            \"type\": \"command\"\n          }\n        ]\n      }\n    ]\n  }\n}\n"},
		{"a new member goes last, other members keep their layout", "{\n  \"model\": \"opus\",\n  \"env\": {\"A\": \"1\", \"B\": \"2\"},\n  \"permissions\": {\n    \"allow\": [\"Bash(ls)\"]\n  }\n}\n",
			func(d []byte) ([]byte, error) { return Set(d, []string{"hooks"}, map[string]any{}) },
			"{\n  \"model\": \"opus\",\n  \"env\": {\"A\": \"1\", \"B\": \"2\"},\n  \"permissions\": {\n    \"allow\": [\"Bash(ls)\"]\n  },\n  \"hooks\": {}\n}\n"},
		{"tabs stay tabs", "{\n\t\"a\": 1\n}",
			func(d []byte) ([]byte, error) { return Set(d, []string{"b"}, []int{1}) },
			"{\n\t\"a\": 1,\n\t\"b\": [\n\t\t1\n\t]\n}"},
		{"a one-line object stays one line", `{"a": 1, "b": {"c": true}}`,
			func(d []byte) ([]byte, error) { return Set(d, []string{"b", "d"}, "e") },
			`{"a": 1, "b": {"c": true, "d": "e"}}`},
		{"a one-line list gets a spaced one-line object", `{"l": [{"a": 1}]}`,
			func(d []byte) ([]byte, error) {
				return Append(d, map[string]any{"k": []any{"x, y: \"z\"", 2}}, "l")
			},
			`{"l": [{"a": 1}, {"k": ["x, y: \"z\"", 2]}]}`},
		{"a one-line empty object fills inline", `{"a": {}}`,
			func(d []byte) ([]byte, error) { return Set(d, []string{"a", "k"}, 1) },
			`{"a": {"k": 1}}`},
		{"compact separators are kept", `{"a":1,"b":2}`,
			func(d []byte) ([]byte, error) { return Set(d, []string{"c"}, 3) },
			`{"a":1,"b":2,"c":3}`},
		{"an equal value keeps its bytes", "{\n  \"a\": { \"x\" : [1,2] }\n}",
			func(d []byte) ([]byte, error) { return Set(d, []string{"a"}, map[string]any{"x": []int{1, 2}}) },
			"{\n  \"a\": { \"x\" : [1,2] }\n}"},
		{"a changed value is replaced in place", "{\n  \"a\": 1,\n  \"b\": 2\n}",
			func(d []byte) ([]byte, error) { return Set(d, []string{"a"}, "one") },
			"{\n  \"a\": \"one\",\n  \"b\": 2\n}"},
		{"append to a multi-line list", "{\n  \"l\": [\n    1,\n    2\n  ]\n}",
			func(d []byte) ([]byte, error) { return Append(d, map[string]int{"x": 3}, "l") },
			"{\n  \"l\": [\n    1,\n    2,\n    {\n      \"x\": 3\n    }\n  ]\n}"},
		{"append to a one-line list", `{"l": [1, 2]}`,
			func(d []byte) ([]byte, error) { return Append(d, 3, "l") },
			`{"l": [1, 2, 3]}`},
		{"delete a middle member", "{\n  \"a\": 1,\n  \"b\": {\"x\": 1},\n  \"c\": 3\n}",
			func(d []byte) ([]byte, error) { return Delete(d, "b") },
			"{\n  \"a\": 1,\n  \"c\": 3\n}"},
		{"delete the first member", "{\n  \"a\": 1,\n  \"b\": 2\n}",
			func(d []byte) ([]byte, error) { return Delete(d, "a") },
			"{\n  \"b\": 2\n}"},
		{"delete the only member", "{\n  \"a\": {\n    \"b\": 1\n  }\n}",
			func(d []byte) ([]byte, error) { return Delete(d, "a", "b") },
			"{\n  \"a\": {}\n}"},
		{"delete a missing member", `{"a": 1}`,
			func(d []byte) ([]byte, error) { return Delete(d, "x", "y") },
			`{"a": 1}`},
		{"delete an element", `{"l": [1, {"x": 2}, 3]}`,
			func(d []byte) ([]byte, error) { return DeleteElem(d, "l", 1) },
			`{"l": [1, 3]}`},
		{"comments are kept", "{\n  // the model\n  \"model\": \"x\", /* why */\n  \"a\": 1\n}\n",
			func(d []byte) ([]byte, error) { return Set(d, []string{"b"}, 2) },
			"{\n  // the model\n  \"model\": \"x\", /* why */\n  \"a\": 1,\n  \"b\": 2\n}\n"},
		{"no HTML escaping", "{}",
			func(d []byte) ([]byte, error) { return Set(d, []string{"c"}, "a && b > c") },
			"{\n  \"c\": \"a && b > c\"\n}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.edit([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tc.want)
			}
			if _, err := Parse(got); err != nil {
				t.Errorf("the result does not parse: %v", err)
			}
		})
	}
}

// Deleting what an insert added gives back the bytes that were there, in
// every style of container.
func TestInsertDeleteRoundTrip(t *testing.T) {
	for _, in := range []string{
		"{\n  \"a\": 1,\n  \"hooks\": {\n    \"Stop\": [\n      {\"hooks\": [{\"type\": \"command\", \"command\": \"mine\"}]}\n    ]\n  }\n}\n",
		`{"hooks": {"Stop": [{"hooks": []}]}}`,
		"{\n    \"hooks\": {\n        \"Stop\": [\n        ]\n    }\n}",
	} {
		root, err := Parse([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		n := len(root.Lookup("hooks", "Stop").Elems)
		out, err := Append([]byte(in), map[string]any{"hooks": []any{map[string]string{"command": "ours"}}}, "hooks", "Stop")
		if err != nil {
			t.Fatal(err)
		}
		out, err = Set(out, []string{"extra"}, map[string]bool{"x": true})
		if err != nil {
			t.Fatal(err)
		}
		if out, err = Delete(out, "extra"); err != nil {
			t.Fatal(err)
		}
		if out, err = DeleteElem(out, "hooks", "Stop", n); err != nil {
			t.Fatal(err)
		}
		want := in
		if n == 0 {
			want = strings.Replace(in, "[\n        ]", "[]", 1)
		}
		if string(out) != want {
			t.Errorf("round trip of\n%s\ngave\n%s", in, out)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ in, msg string }{
		{`{"a": 1,}`, "line 1, column 9: a comma before '}'"},
		{"{\n  \"a\": tru\n}", "line 2, column 8"},
		{`{"a": 1} x`, "more after the value"},
		{`{"a" 1}`, "want ':'"},
		{`[1 2]`, "want ',' or ']'"},
		{"{\"a\": \"\x01\"}", "control character"},
		{`{"a": /* open`, "unterminated comment"},
		{`{"a": 01}`, "bad number"},
		{"", "unexpected end of input"},
	} {
		_, err := Parse([]byte(tc.in))
		var se *SyntaxError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("Parse(%q) = %v, want %q", tc.in, err, tc.msg)
		}
	}
	// What Parse accepts, encoding/json accepts (without comments).
	for _, in := range []string{`{"a":[1,-2.5e3,"\u00e9\n",true,false,null,{}]}`, `"x"`, `[]`} {
		if _, err := Parse([]byte(in)); err != nil || !json.Valid([]byte(in)) {
			t.Errorf("%s: %v", in, err)
		}
	}
}

func TestSetThroughANonObject(t *testing.T) {
	if _, err := Set([]byte(`{"hooks": []}`), []string{"hooks", "Stop"}, 1); !errors.Is(err, ErrNotContainer) {
		t.Errorf("err = %v", err)
	}
}

// Parse agrees with encoding/json on every comment-free document, and
// never panics.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":[1,2,{"b":null}]}`, `[1,`, `"\ud800"`, `{"a":1,}`, "{\n// c\n}", `-0.5e+3`, `{"a":"\xff"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := Parse(data)
		if strings.Contains(string(data), "/") {
			return
		}
		if (err == nil) != json.Valid(data) {
			t.Errorf("Parse(%q) = %v; json.Valid = %v", data, err, json.Valid(data))
		}
	})
}

func TestStandard(t *testing.T) {
	in := "{\n  // a comment with \"quotes\"\n  \"a\": \"x // not a comment\", /* b */ \"b\": [1]\n}"
	out, err := Standard([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(out, &v); err != nil || v["a"] != "x // not a comment" || strings.Count(string(out), "\n") != 3 {
		t.Errorf("%s: %v %v", out, v, err)
	}
	if _, err := Standard([]byte("{,}")); err == nil {
		t.Error("bad JSON accepted")
	}
}
