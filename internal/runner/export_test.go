package runner

// NewCodeIndex is newCodeIndex, for the external tests.
var NewCodeIndex = newCodeIndex
