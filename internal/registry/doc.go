// Package registry provides the one shape of runexp's registries (the
// estimators of package methods, the experiment kinds and the datasets of
// package runner): values registered by name once, from init functions,
// then looked up by name or listed in name order.
//
// A registered value is stored once and handed out by pointer, so every
// caller sees the same value, with the fields Register filled in (the
// registering file, say).
package registry
