package config

import (
	"encoding/json"
	"reflect"
	"strings"
)

// Settings that arrive from a remote (docs/config.md, "Settings from a
// remote"): .skillrepo/config.yaml is shared, so whoever can push to the
// remote can change it — and some of its keys decide where a review's
// transcript and the person's API key are sent, or what an agent may do
// without a person. A remote change to one of those keys is held by the
// domain (it records the clone's confirmed values in its state) until the
// person accepts it; this file says which keys those are and reads and
// sets them by name.

// SecurityKeys are the config keys a remote change to is held.
var SecurityKeys = []string{
	"review.base_url", "review.model", "review.backend", "review.write_approval",
	"curator.base_url", "curator.model", "curator.write_approval",
	"goals.base_url", "goals.model",
	"memory.dir", "protected",
	"remote.name", "remote.main", "remote.proposals", "remote.pull_request",
}

// Held is a key whose remote change waits for the person.
type Held struct {
	Key string `json:"key"`
	// Confirmed is the value in use (JSON); Incoming the file's.
	Confirmed string `json:"confirmed"`
	Incoming  string `json:"incoming"`
}

// Field finds a key's field in c by its yaml path ("review.base_url"),
// settable.
func (c *Config) Field(key string) (reflect.Value, bool) {
	v := reflect.ValueOf(c).Elem()
	for part := range strings.SplitSeq(key, ".") {
		if v.Kind() != reflect.Struct {
			return reflect.Value{}, false
		}
		found := false
		for i := 0; i < v.NumField(); i++ {
			name, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("yaml"), ",")
			if name == part {
				v, found = v.Field(i), true
				break
			}
		}
		if !found {
			return reflect.Value{}, false
		}
	}
	return v, true
}

// SecurityValues are c's values of [SecurityKeys], as JSON.
func (c Config) SecurityValues() map[string]string {
	out := map[string]string{}
	for _, k := range SecurityKeys {
		if v, ok := c.Field(k); ok {
			b, _ := json.Marshal(v.Interface())
			out[k] = string(b)
		}
	}
	return out
}
