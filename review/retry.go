package review

import "github.com/skillrepo/skillrepo/internal/modelcall"

// Retryable reports whether a failed model call is worth another try
// later (HTTP 408, 409, 429, 5xx, network errors, timeouts): the rule the
// loop retries by, for a caller (the queue worker) that retries whole
// reviews.
func Retryable(err error) bool { return modelcall.Retryable(err) }
