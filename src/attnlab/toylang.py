"""A toy English -> French-like language, generated from a grammar, with gold word alignments.

Nothing is downloaded: the grammar and the lexicon are written below, and a seeded generator
writes sentence pairs. Every target token carries a **gold alignment**, the index of the source
word it translates (``-1`` when it translates none, like the ``des`` of ``I see cats`` ->
``je vois des chats``). The language has the phenomena that make attention interesting:

* adjectives after the noun: ``the red car`` -> ``la voiture rouge``;
* gender and number agreement of articles and adjectives: ``the small houses`` ->
  ``les maisons petites``, ``this old man`` -> ``cet homme vieux``;
* a clitic object pronoun before the verb: ``I love you`` -> ``je t' aime``;
* negation around the verb: ``she does not see him`` -> ``elle ne le voit pas``;
* adverbs after the verb: ``we often help the king`` -> ``nous aidons souvent le roi``;
* elision before a vowel (``j'``, ``t'``, ``l'``, ``n'``, ``qu'``);
* long sentences: conjunctions, relative clauses (``qui``/``que``) and prepositional phrases,
  from 3 to about 50 source tokens.

Translation is deterministic (one French sentence per English sentence), so exact match and
BLEU against the one reference are meaningful. ``make_splits`` gives train/validation/test sets
with no source sentence shared between them.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np

PAD, BOS, EOS, UNK = 0, 1, 2, 3
SPECIALS = ("<pad>", "<bos>", "<eos>", "<unk>")

# ---------------------------------------------------------------------------------------------
# The lexicon

# (English singular, English plural, French singular, French plural, gender)
NOUNS = [
    ("cat", "cats", "chat", "chats", "m"), ("dog", "dogs", "chien", "chiens", "m"),
    ("book", "books", "livre", "livres", "m"), ("boy", "boys", "garçon", "garçons", "m"),
    ("man", "men", "homme", "hommes", "m"), ("bird", "birds", "oiseau", "oiseaux", "m"),
    ("horse", "horses", "cheval", "chevaux", "m"), ("tree", "trees", "arbre", "arbres", "m"),
    ("garden", "gardens", "jardin", "jardins", "m"), ("friend", "friends", "ami", "amis", "m"),
    ("teacher", "teachers", "professeur", "professeurs", "m"),
    ("doctor", "doctors", "médecin", "médecins", "m"), ("king", "kings", "roi", "rois", "m"),
    ("student", "students", "étudiant", "étudiants", "m"),
    ("neighbour", "neighbours", "voisin", "voisins", "m"),
    ("baker", "bakers", "boulanger", "boulangers", "m"), ("cake", "cakes", "gâteau", "gâteaux", "m"),
    ("train", "trains", "train", "trains", "m"), ("boat", "boats", "bateau", "bateaux", "m"),
    ("hat", "hats", "chapeau", "chapeaux", "m"), ("wolf", "wolves", "loup", "loups", "m"),
    ("child", "children", "enfant", "enfants", "m"), ("brother", "brothers", "frère", "frères", "m"),
    ("father", "fathers", "père", "pères", "m"), ("village", "villages", "village", "villages", "m"),
    ("castle", "castles", "château", "châteaux", "m"), ("fish", "fishes", "poisson", "poissons", "m"),
    ("painting", "paintings", "tableau", "tableaux", "m"), ("bike", "bikes", "vélo", "vélos", "m"),
    ("house", "houses", "maison", "maisons", "f"), ("girl", "girls", "fille", "filles", "f"),
    ("woman", "women", "femme", "femmes", "f"), ("sister", "sisters", "sœur", "sœurs", "f"),
    ("mother", "mothers", "mère", "mères", "f"), ("queen", "queens", "reine", "reines", "f"),
    ("city", "cities", "ville", "villes", "f"), ("flower", "flowers", "fleur", "fleurs", "f"),
    ("song", "songs", "chanson", "chansons", "f"), ("key", "keys", "clé", "clés", "f"),
    ("cow", "cows", "vache", "vaches", "f"), ("mouse", "mice", "souris", "souris", "f"),
    ("cup", "cups", "tasse", "tasses", "f"), ("street", "streets", "rue", "rues", "f"),
    ("shirt", "shirts", "chemise", "chemises", "f"), ("lamp", "lamps", "lampe", "lampes", "f"),
    ("table", "tables", "table", "tables", "f"), ("window", "windows", "fenêtre", "fenêtres", "f"),
    ("door", "doors", "porte", "portes", "f"), ("letter", "letters", "lettre", "lettres", "f"),
    ("river", "rivers", "rivière", "rivières", "f"), ("school", "schools", "école", "écoles", "f"),
    ("apple", "apples", "pomme", "pommes", "f"), ("car", "cars", "voiture", "voitures", "f"),
]

# (English, French masculine singular, feminine singular, masculine plural, feminine plural)
ADJECTIVES = [
    ("red", "rouge", "rouge", "rouges", "rouges"), ("big", "grand", "grande", "grands", "grandes"),
    ("small", "petit", "petite", "petits", "petites"), ("black", "noir", "noire", "noirs", "noires"),
    ("white", "blanc", "blanche", "blancs", "blanches"), ("green", "vert", "verte", "verts", "vertes"),
    ("old", "vieux", "vieille", "vieux", "vieilles"),
    ("new", "nouveau", "nouvelle", "nouveaux", "nouvelles"),
    ("happy", "heureux", "heureuse", "heureux", "heureuses"),
    ("sad", "triste", "triste", "tristes", "tristes"), ("young", "jeune", "jeune", "jeunes", "jeunes"),
    ("pretty", "joli", "jolie", "jolis", "jolies"), ("blue", "bleu", "bleue", "bleus", "bleues"),
    ("tired", "fatigué", "fatiguée", "fatigués", "fatiguées"),
    ("strong", "fort", "forte", "forts", "fortes"), ("quiet", "calme", "calme", "calmes", "calmes"),
    ("rich", "riche", "riche", "riches", "riches"), ("poor", "pauvre", "pauvre", "pauvres", "pauvres"),
    ("clever", "intelligent", "intelligente", "intelligents", "intelligentes"),
    ("lazy", "paresseux", "paresseuse", "paresseux", "paresseuses"),
    ("warm", "chaud", "chaude", "chauds", "chaudes"), ("cold", "froid", "froide", "froids", "froides"),
    ("heavy", "lourd", "lourde", "lourds", "lourdes"),
    ("kind", "gentil", "gentille", "gentils", "gentilles"),
    ("beautiful", "beau", "belle", "beaux", "belles"),
    ("famous", "célèbre", "célèbre", "célèbres", "célèbres"),
]

# (English base, English 3rd singular, French: je, tu, il/elle, nous, ils/elles)
TRANSITIVE = [
    ("love", "loves", ("aime", "aimes", "aime", "aimons", "aiment")),
    ("see", "sees", ("vois", "vois", "voit", "voyons", "voient")),
    ("watch", "watches", ("regarde", "regardes", "regarde", "regardons", "regardent")),
    ("help", "helps", ("aide", "aides", "aide", "aidons", "aident")),
    ("call", "calls", ("appelle", "appelles", "appelle", "appelons", "appellent")),
    ("find", "finds", ("trouve", "trouves", "trouve", "trouvons", "trouvent")),
    ("follow", "follows", ("suis", "suis", "suit", "suivons", "suivent")),
    ("know", "knows", ("connais", "connais", "connaît", "connaissons", "connaissent")),
    ("hear", "hears", ("entends", "entends", "entend", "entendons", "entendent")),
    ("take", "takes", ("prends", "prends", "prend", "prenons", "prennent")),
    ("paint", "paints", ("peins", "peins", "peint", "peignons", "peignent")),
    ("draw", "draws", ("dessine", "dessines", "dessine", "dessinons", "dessinent")),
    ("eat", "eats", ("mange", "manges", "mange", "mangeons", "mangent")),
    ("read", "reads", ("lis", "lis", "lit", "lisons", "lisent")),
    ("write", "writes", ("écris", "écris", "écrit", "écrivons", "écrivent")),
    ("buy", "buys", ("achète", "achètes", "achète", "achetons", "achètent")),
    ("sell", "sells", ("vends", "vends", "vend", "vendons", "vendent")),
    ("meet", "meets", ("rencontre", "rencontres", "rencontre", "rencontrons", "rencontrent")),
    ("visit", "visits", ("visite", "visites", "visite", "visitons", "visitent")),
    ("forget", "forgets", ("oublie", "oublies", "oublie", "oublions", "oublient")),
    ("carry", "carries", ("porte", "portes", "porte", "portons", "portent")),
    ("open", "opens", ("ouvre", "ouvres", "ouvre", "ouvrons", "ouvrent")),
    ("push", "pushes", ("pousse", "pousses", "pousse", "poussons", "poussent")),
    ("hide", "hides", ("cache", "caches", "cache", "cachons", "cachent")),
    ("wash", "washes", ("lave", "laves", "lave", "lavons", "lavent")),
    ("admire", "admires", ("admire", "admires", "admire", "admirons", "admirent")),
    ("catch", "catches", ("attrape", "attrapes", "attrape", "attrapons", "attrapent")),
]
INTRANSITIVE = [
    ("sleep", "sleeps", ("dors", "dors", "dort", "dormons", "dorment")),
    ("run", "runs", ("cours", "cours", "court", "courons", "courent")),
    ("sing", "sings", ("chante", "chantes", "chante", "chantons", "chantent")),
    ("dance", "dances", ("danse", "danses", "danse", "dansons", "dansent")),
    ("laugh", "laughs", ("ris", "ris", "rit", "rions", "rient")),
    ("swim", "swims", ("nage", "nages", "nage", "nageons", "nagent")),
    ("work", "works", ("travaille", "travailles", "travaille", "travaillons", "travaillent")),
    ("wait", "waits", ("attends", "attends", "attend", "attendons", "attendent")),
]

# Persons: (English subject, English object, French subject, French object clitic, person index
# into the French conjugation, English 3rd singular?)
PRONOUNS = [
    ("I", "me", "je", "me", 0, False), ("you", "you", "tu", "te", 1, False),
    ("he", "him", "il", "le", 2, True), ("she", "her", "elle", "la", 2, True),
    ("we", "us", "nous", "nous", 3, False), ("they", "them", "ils", "les", 4, False),
]
PREPOSITIONS = [("in", "dans"), ("with", "avec"), ("on", "sur"), ("under", "sous"),
                ("behind", "derrière"), ("for", "pour"), ("without", "sans"), ("towards", "vers")]
ADVERBS = [("often", "souvent"), ("always", "toujours"), ("sometimes", "parfois"),
           ("quickly", "vite"), ("really", "vraiment")]
CONJUNCTIONS = [("and", "et"), ("but", "mais"), ("because", "car"), ("or", "ou")]
# determiners: English, French (m sg, f sg, pl), number
DETERMINERS = [("the", ("le", "la", "les")), ("a", ("un", "une", None)),
               ("some", (None, None, "des")), ("this", ("ce", "cette", None)),
               ("these", (None, None, "ces")), ("two", (None, None, "deux")),
               ("three", (None, None, "trois")), ("my", ("mon", "ma", "mes"))]

# Elision before a vowel (h counts as a vowel here: l' homme, l' heureux).
ELISION = {"je": "j'", "me": "m'", "te": "t'", "le": "l'", "la": "l'", "ne": "n'", "que": "qu'",
           "ce": "cet", "ma": "mon"}
VOWELS = tuple("aeiouyéèêàâîôh")


@dataclass(frozen=True)
class Pair:
    """A sentence pair: English source, French-like target, and the gold alignment.

    ``alignment[t]`` is the index into ``src`` of the word that target token ``t`` translates,
    or ``-1`` if it translates none.
    """

    src: tuple[str, ...]
    tgt: tuple[str, ...]
    alignment: tuple[int, ...]

    def __len__(self) -> int:
        return len(self.src)


# ---------------------------------------------------------------------------------------------
# The grammar: every rule returns (English words, French words with the index of their English
# word *within the rule's English words*, or -1).

class _Builder:
    """Collects English words and French (word, English index) pairs for one phrase."""

    def __init__(self) -> None:
        self.en: list[str] = []
        self.fr: list[tuple[str, int]] = []

    def word(self, en: str) -> int:
        self.en.append(en)
        return len(self.en) - 1

    def fr_word(self, fr: str, src: int) -> None:
        self.fr.append((fr, src))

    def phrase(self, other: "_Builder", fr: bool = True) -> None:
        """Append ``other`` (its English words after ours, its French words shifted)."""
        offset = len(self.en)
        self.en.extend(other.en)
        if fr:
            self.fr.extend((w, i + offset if i >= 0 else -1) for w, i in other.fr)

    def shifted_fr(self, other: "_Builder", offset: int) -> list[tuple[str, int]]:
        return [(w, i + offset if i >= 0 else -1) for w, i in other.fr]


class _Grammar:
    def __init__(self, rng: random.Random, complexity: float) -> None:
        self.rng = rng
        self.c = complexity  # 0 = short and simple, 1 = long and nested

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def pick(self, seq):
        return seq[int(self.rng.random() * len(seq))]

    # noun phrases ------------------------------------------------------------------------
    def noun_phrase(self, depth: int, allow_bare: bool = True) -> tuple[_Builder, bool]:
        """An NP; returns it and whether it is plural."""
        b = _Builder()
        en_sg, en_pl, fr_sg, fr_pl, gender = self.pick(NOUNS)
        if allow_bare and self.chance(0.08):
            det = None
            plural = True
        else:
            det = self.pick(DETERMINERS)
            forms = det[1]
            if forms[0] is None:
                plural = True
            elif forms[2] is None:
                plural = False
            else:
                plural = self.chance(0.35)
        n_adj = 0
        if self.chance(0.25 + 0.45 * self.c):
            n_adj = 1 + int(self.chance(0.25 + 0.3 * self.c))
        adjs = [self.pick(ADJECTIVES) for _ in range(n_adj)]
        if det is not None:
            i_det = b.word(det[0])
        i_adj = [b.word(a[0]) for a in adjs]
        i_noun = b.word(en_pl if plural else en_sg)
        if det is None:
            b.fr_word("des", -1)  # the French article has no English word
        else:
            forms = det[1]
            b.fr_word(forms[2] if plural else forms[0 if gender == "m" else 1], i_det)
        b.fr_word(fr_pl if plural else fr_sg, i_noun)
        form = (2 if plural else 0) + (1 if gender == "f" else 0)
        for a, i in zip(adjs, i_adj):
            b.fr_word(a[1 + form], i)
        if depth < 1 and self.chance(0.12 + 0.3 * self.c):
            if self.chance(0.5):
                b.phrase(self.prep_phrase(depth + 1))
            else:
                b.phrase(self.relative(depth + 1, plural))
        return b, plural

    def prep_phrase(self, depth: int) -> _Builder:
        b = _Builder()
        en, fr = self.pick(PREPOSITIONS)
        b.fr_word(fr, b.word(en))
        np_, _ = self.noun_phrase(depth + 1, allow_bare=False)
        b.phrase(np_)
        return b

    def relative(self, depth: int, antecedent_plural: bool) -> _Builder:
        """``that`` + a clause with a gap: ``qui`` (subject gap) or ``que`` (object gap)."""
        b = _Builder()
        i_that = b.word("that")
        verb = self.pick(TRANSITIVE)
        if self.chance(0.5):  # subject relative: the dog that sees the cat
            b.fr_word("qui", i_that)
            person = 4 if antecedent_plural else 2
            i_v = b.word(verb[0] if antecedent_plural else verb[1])
            b.fr_word(verb[2][person], i_v)
            obj, _ = self.noun_phrase(depth + 1)
            b.phrase(obj)
        else:  # object relative: the dog that the cat sees
            b.fr_word("que", i_that)
            subj, person, third_sg = self.subject(depth + 1)
            b.phrase(subj)
            i_v = b.word(verb[1] if third_sg else verb[0])
            b.fr_word(verb[2][person], i_v)
        return b

    def subject(self, depth: int) -> tuple[_Builder, int, bool]:
        """A subject: a pronoun or an NP; returns it, the French person, English 3rd singular."""
        if self.chance(0.45 - 0.2 * self.c):
            b = _Builder()
            en, _, fr, _, person, third = self.pick(PRONOUNS)
            b.fr_word(fr, b.word(en))
            return b, person, third
        b, plural = self.noun_phrase(depth)
        return b, (4 if plural else 2), not plural

    # clauses -----------------------------------------------------------------------------
    def clause(self) -> _Builder:
        b = _Builder()
        subj, person, third = self.subject(0)
        b.phrase(subj)
        negated = self.chance(0.25)
        adverb = None if negated or not self.chance(0.15 + 0.1 * self.c) else self.pick(ADVERBS)
        transitive = self.chance(0.8)
        verb = self.pick(TRANSITIVE if transitive else INTRANSITIVE)
        i_not = i_adv = -1
        if negated:
            b.word("does" if third else "do")  # no French word
            i_not = b.word("not")
            i_verb = b.word(verb[0])
        else:
            if adverb is not None:
                i_adv = b.word(adverb[0])
            i_verb = b.word(verb[1] if third else verb[0])
        fr_verb = verb[2][person]
        clitic = None
        obj = None
        if transitive:
            if self.chance(0.3 - 0.15 * self.c):
                clitic = self.pick(PRONOUNS)
                i_obj = b.word(clitic[1])
            else:
                obj, _ = self.noun_phrase(0)
                o_offset = len(b.en)
                b.phrase(obj, fr=False)
        # French order: subject [ne] [clitic] verb [pas] [adverb] [object]
        if negated:
            b.fr_word("ne", i_not)
        if clitic is not None:
            b.fr_word(clitic[3], i_obj)
        b.fr_word(fr_verb, i_verb)
        if negated:
            b.fr_word("pas", i_not)
        if adverb is not None:
            b.fr_word(adverb[1], i_adv)
        if obj is not None:
            b.fr.extend(b.shifted_fr(obj, o_offset))
        if self.chance(0.1 + 0.35 * self.c):
            b.phrase(self.prep_phrase(0))
        return b

    def sentence(self, n_clauses: int) -> _Builder:
        b = self.clause()
        for _ in range(n_clauses - 1):
            en, fr = self.pick(CONJUNCTIONS)
            b.fr_word(fr, b.word(en))
            b.phrase(self.clause())
        return b


def _elide(words: list[str]) -> list[str]:
    """French elision: ``je`` -> ``j'``, ``te`` -> ``t'``, ``ce`` -> ``cet``... before a vowel."""
    out = list(words)
    for t in range(len(out) - 1):
        if out[t] in ELISION and out[t + 1].startswith(VOWELS):
            out[t] = ELISION[out[t]]
    return out


def _english_an(words: list[str]) -> list[str]:
    """English ``a`` -> ``an`` before a vowel: ``an old man``, ``an apple``."""
    return [("an" if w == "a" and t + 1 < len(words) and words[t + 1][0] in "aeiou" else w)
            for t, w in enumerate(words)]


def random_pair(rng: random.Random, complexity: float | None = None,
                n_clauses: int | None = None) -> Pair:
    """One sentence pair drawn with ``rng`` (a ``random.Random``).

    ``complexity`` in [0, 1] (drawn if None) makes noun phrases richer (adjectives, relative
    clauses, prepositional phrases); ``n_clauses`` (1 to 4 if None) joins clauses with ``and``,
    ``but``, ``because``, ``or``.
    """
    c = rng.random() if complexity is None else float(complexity)
    if n_clauses is None:
        n_clauses = 1 + sum(rng.random() < 0.15 + 0.6 * c for _ in range(3))
    g = _Grammar(rng, c)
    b = g.sentence(n_clauses)
    fr_words = _elide([w for w, _ in b.fr])
    return Pair(tuple(_english_an(b.en)), tuple(fr_words), tuple(i for _, i in b.fr))


def generate_pairs(n: int, seed: int = 0, min_len: int = 3, max_len: int = 52,
                   bin_width: int = 5) -> list[Pair]:
    """``n`` distinct sentence pairs whose source lengths spread evenly over ``[min_len, max_len]``.

    The range is cut into bins of ``bin_width`` words, each holding at most ``n / n_bins``
    sentences. Each draw aims at a length in the next bin that is not full (the aim sets the
    number of clauses) and keeps the pair if it is new and its bin has room. Deterministic given
    ``seed`` (Python's ``random.Random``, whose streams do not change between Python versions).
    """
    rng = random.Random(seed)
    edges = list(range(min_len, max_len + 1, bin_width))
    n_bins = len(edges)
    cap = -(-n // n_bins)
    counts = [0] * n_bins
    seen: set[tuple[str, ...]] = set()
    out: list[Pair] = []
    aim = 0
    for _ in range(200 * n + 1000):
        if len(out) == n:
            return out
        while counts[aim] >= cap:
            aim = (aim + 1) % n_bins
        lo = edges[aim]
        target = rng.uniform(lo, min(lo + bin_width, max_len + 1))
        c = rng.random()
        pair = random_pair(rng, c, max(1, min(5, round(target / (6.5 + 5.3 * c)))))
        L = len(pair.src)
        if L < min_len or L > max_len or pair.src in seen:
            continue
        k = (L - min_len) // bin_width
        if counts[k] >= cap:
            continue
        counts[k] += 1
        seen.add(pair.src)
        out.append(pair)
        aim = (aim + 1) % n_bins
    raise RuntimeError("generate_pairs: the grammar could not fill the length bins")


def make_splits(n_train: int = 20000, n_valid: int = 1000, n_test: int = 2000,
                seed: int = 0, max_len: int = 52) -> dict[str, list[Pair]]:
    """Train, validation and test pairs; no source sentence appears in two splits."""
    pairs = generate_pairs(n_train + n_valid + n_test, seed=seed, max_len=max_len)
    random.Random(seed + 1).shuffle(pairs)
    return {"train": pairs[:n_train], "valid": pairs[n_train:n_train + n_valid],
            "test": pairs[n_train + n_valid:]}


def _example(src: str, tgt: str, alignment: Sequence[int]) -> Pair:
    return Pair(tuple(src.split()), tuple(tgt.split()), tuple(alignment))


# Hand-written pairs of the grammar, for the notebook's heatmaps (tests check them against the
# lexicon): the clitic reordering, negation, adjectives after the noun with agreement, a long one.
EXAMPLES = {
    "I love you": _example("I love you", "je t' aime", (0, 2, 1)),
    "I do not love you": _example("I do not love you", "je ne t' aime pas", (0, 2, 4, 3, 2)),
    "she does not see him": _example("she does not see him", "elle ne le voit pas", (0, 2, 4, 3, 2)),
    "adjectives": _example("the small red cars follow an old man",
                           "les voitures petites rouges suivent un homme vieux", (0, 3, 1, 2, 4, 5, 7, 6)),
    "long": _example("the black cat that the girls see does not eat the big fish in my garden",
                     "le chat noir que les filles voient ne mange pas le poisson grand dans mon jardin",
                     (0, 2, 1, 3, 4, 5, 6, 8, 9, 8, 10, 12, 11, 13, 14, 15)),
}


def lexicon_links() -> set[tuple[str, str]]:
    """Every (English word, French word) pair the grammar may align (elided forms included)."""
    links: set[tuple[str, str]] = set()
    for en_sg, en_pl, fr_sg, fr_pl, _ in NOUNS:
        links |= {(en_sg, fr_sg), (en_pl, fr_pl)}
    for en, *forms in ADJECTIVES:
        links |= {(en, f) for f in forms}
    for en, en3, forms in TRANSITIVE + INTRANSITIVE:
        links |= {(e, f) for e in (en, en3) for f in forms}
    for en_s, en_o, fr_s, fr_o, _, _ in PRONOUNS:
        links |= {(en_s, fr_s), (en_o, fr_o)}
    for en, fr in PREPOSITIONS + ADVERBS + CONJUNCTIONS:
        links.add((en, fr))
    for en, forms in DETERMINERS:
        links |= {(en, f) for f in forms if f}
    links |= {("that", "qui"), ("that", "que"), ("not", "ne"), ("not", "pas")}
    links |= {(e, ELISION[f]) for e, f in list(links) if f in ELISION}
    links |= {("an", f) for e, f in list(links) if e == "a"}
    return links


# ---------------------------------------------------------------------------------------------
# Vocabularies (built from the lexicon, so every word the grammar writes is in them)

class Vocab:
    """Words <-> integer ids; ids 0-3 are ``<pad> <bos> <eos> <unk>``."""

    def __init__(self, words: Iterable[str]) -> None:
        self.itos: list[str] = list(SPECIALS) + sorted(set(words) - set(SPECIALS))
        self.stoi: dict[str, int] = {w: i for i, w in enumerate(self.itos)}

    def __len__(self) -> int:
        return len(self.itos)

    def encode(self, words: Sequence[str]) -> list[int]:
        return [self.stoi.get(w, UNK) for w in words]

    def decode(self, ids: Iterable[int], strip: bool = True) -> list[str]:
        """Words of ``ids``; with ``strip``, stop at ``<eos>`` and drop ``<pad>``/``<bos>``."""
        out = []
        for i in ids:
            i = int(i)
            if strip and i == EOS:
                break
            if strip and i in (PAD, BOS):
                continue
            out.append(self.itos[i])
        return out


def source_words() -> set[str]:
    words = {n[0] for n in NOUNS} | {n[1] for n in NOUNS} | {a[0] for a in ADJECTIVES}
    for v in TRANSITIVE + INTRANSITIVE:
        words |= {v[0], v[1]}
    words |= {p[0] for p in PRONOUNS} | {p[1] for p in PRONOUNS}
    words |= {p[0] for p in PREPOSITIONS} | {a[0] for a in ADVERBS} | {c[0] for c in CONJUNCTIONS}
    words |= {d[0] for d in DETERMINERS} | {"an", "that", "do", "does", "not"}
    return words


def target_words() -> set[str]:
    words = {n[2] for n in NOUNS} | {n[3] for n in NOUNS}
    for a in ADJECTIVES:
        words |= set(a[1:])
    for v in TRANSITIVE + INTRANSITIVE:
        words |= set(v[2])
    words |= {p[2] for p in PRONOUNS} | {p[3] for p in PRONOUNS}
    words |= {p[1] for p in PREPOSITIONS} | {a[1] for a in ADVERBS} | {c[1] for c in CONJUNCTIONS}
    for _, forms in DETERMINERS:
        words |= {f for f in forms if f}
    words |= {"des", "qui", "que", "ne", "pas"} | set(ELISION.values())
    return words


def vocabularies() -> tuple[Vocab, Vocab]:
    """The source (English) and target (French-like) vocabularies."""
    return Vocab(source_words()), Vocab(target_words())


# ---------------------------------------------------------------------------------------------
# Batches of ids

def encode_batch(pairs: Sequence[Pair], src_vocab: Vocab, tgt_vocab: Vocab) -> dict[str, np.ndarray]:
    """Pad a list of pairs into arrays.

    Returns a dict of
        ``src`` (B, Ls) int64 and ``src_mask`` (B, Ls) bool (True = a real word);
        ``tgt_in`` (B, Lt) int64, ``<bos>`` then the target words (the decoder's inputs);
        ``tgt_out`` (B, Lt) int64, the target words then ``<eos>`` (what it must predict);
        ``tgt_mask`` (B, Lt) bool, True where ``tgt_out`` is not padding;
        ``gold`` (B, Lt) int64, the gold source index of each ``tgt_out`` token, -1 for none,
        for ``<eos>`` and for padding.
    """
    B = len(pairs)
    Ls = max(len(p.src) for p in pairs)
    Lt = max(len(p.tgt) for p in pairs) + 1
    src = np.full((B, Ls), PAD, dtype=np.int64)
    tgt_in = np.full((B, Lt), PAD, dtype=np.int64)
    tgt_out = np.full((B, Lt), PAD, dtype=np.int64)
    gold = np.full((B, Lt), -1, dtype=np.int64)
    for b, p in enumerate(pairs):
        src[b, :len(p.src)] = src_vocab.encode(p.src)
        ids = tgt_vocab.encode(p.tgt)
        tgt_in[b, :len(ids) + 1] = [BOS] + ids
        tgt_out[b, :len(ids) + 1] = ids + [EOS]
        gold[b, :len(ids)] = p.alignment
    return {"src": src, "src_mask": src != PAD, "tgt_in": tgt_in, "tgt_out": tgt_out,
            "tgt_mask": tgt_out != PAD, "gold": gold}
