package lru

import (
	"reflect"
	"testing"
)

func TestDropsTheLeastRecentlyUsed(t *testing.T) {
	tests := []struct {
		name string
		ops  []string // "+k" puts k, "k" gets k
		want []string // kept, most recent first
	}{
		{"under the bound", []string{"+a", "+b"}, []string{"b", "a"}},
		{"oldest dropped", []string{"+a", "+b", "+c", "+d"}, []string{"d", "c", "b"}},
		{"a get keeps it", []string{"+a", "+b", "+c", "a", "+d"}, []string{"d", "a", "c"}},
		{"a put again keeps it", []string{"+a", "+b", "+c", "+a", "+d"}, []string{"d", "a", "c"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := New[string, int](3)
			for i, op := range tt.ops {
				if op[0] == '+' {
					c.Put(op[1:], i)
				} else if _, ok := c.Get(op); !ok {
					t.Fatalf("get %s: missing", op)
				}
			}
			if got := c.keys(); !reflect.DeepEqual(got, tt.want) || len(c.items) != len(tt.want) || c.Len() != len(tt.want) {
				t.Errorf("kept %v (%d in the map), want %v", got, len(c.items), tt.want)
			}
		})
	}
}

// keys lists the keys, most recent first (the test's view of the order).
func (c *Cache[K, V]) keys() []K {
	var out []K
	for e := c.order.Front(); e != nil; e = e.Next() {
		out = append(out, e.Value.(*entry[K, V]).k)
	}
	return out
}
