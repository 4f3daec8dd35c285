package cmdutil

import (
	"github.com/skillrepo/skillrepo/internal/statefile"
	"github.com/skillrepo/skillrepo/queue"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// LastReviewFile is the record of the last review run outside the queue
// (by `skillrepo review`), a queue entry that `status` reads beside the
// queue's.
func LastReviewFile(lib *skillrepo.Library) statefile.File[queue.Entry] {
	return statefile.File[queue.Entry]{Path: lib.State().LastReview(), Limit: 1 << 20, Version: 1, Perm: 0o600}
}
