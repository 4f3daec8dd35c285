// Package lru is a map bounded by count that drops the least recently
// used entry: the domain's [skillrepo.Memo] keeps its ownership maps and
// proposal summaries in two. Not safe for concurrent use: the caller
// holds its own lock.
package lru

import "container/list"

// Cache is a map of at most Max entries; the zero value is not usable,
// make one with [New].
type Cache[K comparable, V any] struct {
	max   int
	order *list.List // of *entry, most recent first
	items map[K]*list.Element
}

type entry[K comparable, V any] struct {
	k K
	v V
}

// New returns an empty cache of at most max entries.
func New[K comparable, V any](max int) Cache[K, V] {
	return Cache[K, V]{max: max, order: list.New(), items: map[K]*list.Element{}}
}

// Get returns k's value and makes it the most recently used.
func (c *Cache[K, V]) Get(k K) (V, bool) {
	e, ok := c.items[k]
	if !ok {
		var zero V
		return zero, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*entry[K, V]).v, true
}

// Put sets k's value, makes it the most recently used and drops the
// least recently used entries over the bound.
func (c *Cache[K, V]) Put(k K, v V) {
	if e, ok := c.items[k]; ok {
		e.Value.(*entry[K, V]).v = v
		c.order.MoveToFront(e)
		return
	}
	c.items[k] = c.order.PushFront(&entry[K, V]{k, v})
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.items, last.Value.(*entry[K, V]).k)
	}
}

// Len is the number of entries kept.
func (c *Cache[K, V]) Len() int { return c.order.Len() }
