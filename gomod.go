package runexp

import _ "embed"

// GoMod is the module's go.mod: the libraries the code requires, with
// their versions, as a paper report's Implementation names them.
//
//go:embed go.mod
var GoMod string
