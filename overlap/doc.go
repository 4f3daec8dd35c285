// Package overlap finds skills that say the same thing: the clusters a
// curator would fold into one umbrella skill, and, for a skill about to be
// created, the existing skills it duplicates. It is pure: it reads the
// skills it is given (name, description, body, category, flags) and
// nothing else, no git and no network, so a person's `curator overlap`,
// the curator's consolidation pass and the write-time duplicate check all
// get the same answer from the same text.
//
// # The measure
//
// Each skill is a bag of terms, weighted TF-IDF, and two skills are as
// similar as the cosine of their vectors:
//
//   - Terms are the lower-cased words of the name (split on - _ .),
//     the description and the first [MaxBodyBytes] of the body, with
//     English function words and SKILL.md boilerplate dropped and a light
//     suffix folding (retries, retrying, retried → retry).
//   - A word counts 3 in the name, 2 in the description, 1 in the body:
//     agents pick skills by name and description, so that is where a
//     skill's purpose is.
//   - Weight = (1 + ln tf) × idf, idf = ln((N+1)/(df+1)) + 1: a word
//     every skill uses says nothing, a word two skills share says a lot.
//   - Terms held by more than [DFCeiling] skills are left out of the
//     vectors altogether (norm included): that is the definition of the
//     measure, not an approximation of it, and it is what keeps the
//     all-pairs pass near linear.
//
// Why TF-IDF cosine and not shingled MinHash: the duplicates an agent
// writes are rewordings (the same steps said another way, in another
// order, under another name), not copies. Shingles of k consecutive words
// break at every changed word and every moved line, so a reworded skill
// shares few shingles with its original, while the bag of words survives
// both reordering and most rewording. MinHash estimates Jaccard
// similarity, which treats "docker" and "the" alike; IDF weighting is what
// tells a false friend (two skills sharing the word "token", one about API
// credentials and one about LLM tokenizers) from a duplicate. And cosine
// with an inverted index is exact: no false negatives from banding, no
// seeds, the same answer on every machine.
//
// # Cost
//
// [NewIndex] reads every word once (the word → term lookup is an
// open-addressing table keyed by the hash the tokenizer computes as it
// reads). [Index.Pairs] walks, for each skill, the posting lists of its
// terms from that skill on, accumulating dot products in a dense array:
// the work is the sum over terms of the squared posting length, bounded
// by the df ceiling. [Index.Query] touches only the posting lists of the
// new skill's terms. On 10,000 skills see BenchmarkFind10k,
// BenchmarkNewIndex10k and BenchmarkQuery10k (bench/README.md has the
// numbers).
//
// # Clusters
//
// [Find] links two skills when their similarity reaches the threshold
// ([DefaultThreshold]), and puts every unpinned skill of a name prefix
// (gateway-*, pr-*) in one prefix cluster, the reference curator's
// starting point: the name is evidence of a family, not proof, so the
// cluster lists each pair of its members with its similarity, low ones
// included (a docker-compose skill beside a docker-cleanup family shows
// 0.13), and the umbrella decision stays with the model. Linked skills are
// joined transitively (union-find, roots chosen by index so the result
// does not depend on the order of the input); each cluster carries its
// members with their flags (pinned, scheduled), the evidence (shared
// prefix; each pair with its similarity and the terms that weigh most in
// it) and a suggested umbrella name.
package overlap
