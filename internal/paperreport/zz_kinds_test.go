package paperreport

// The experiment kinds and datasets register themselves in their
// packages' init: the Implementation section reads their files and
// descriptions from the registries, as the runexp binary has them.
import _ "github.com/runexp/runexp/experiments"
