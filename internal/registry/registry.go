package registry

import (
	"fmt"
	"sort"
	"sync"
)

// Registry holds values of type T by name. The zero value is not ready:
// make one with New. It is safe for concurrent use.
type Registry[T any] struct {
	what string // names a value in the duplicate panic ("methods: estimator")
	mu   sync.RWMutex
	m    map[string]*T
}

// New returns an empty registry; what names its values in the panic of a
// duplicate name ("runner: kind").
func New[T any](what string) *Registry[T] {
	return &Registry[T]{what: what, m: map[string]*T{}}
}

// Add stores v under name and returns the stored copy. A name registered
// twice panics: registration happens in init functions, where that is a
// bug.
func (r *Registry[T]) Add(name string, v T) *T {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.m[name]; dup {
		panic(fmt.Sprintf("%s %q registered twice", r.what, name))
	}
	p := &v
	r.m[name] = p
	return p
}

// Lookup returns the value registered under name.
func (r *Registry[T]) Lookup(name string) (*T, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	v, ok := r.m[name]
	return v, ok
}

// All returns every registered value, in name order.
func (r *Registry[T]) All() []*T {
	names := r.Names()
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]*T, len(names))
	for i, n := range names {
		out[i] = r.m[n]
	}
	return out
}

// Names returns the registered names, sorted.
func (r *Registry[T]) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	names := make([]string, 0, len(r.m))
	for n := range r.m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
