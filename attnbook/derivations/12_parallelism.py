"""Checks of the rows in book/_data/errata/12_parallelism.yml, one function per row id."""

from __future__ import annotations

from attnlib.companions import examples, recurrence

from .. import printed
from ..evidence import Finding, MadeUp
from ._registry import Value, derives


@derives("parallel-rnn-total-steps")
def parallel_rnn_total_steps() -> Value:
    """Claim: the RNN needs 'Total: 7 sequential steps' against attention's 1 parallel step."""
    words = examples.BANK_LOAN_SENTENCE.split()
    counts = recurrence.path_counts(words, "bank", "it")
    return Finding(
        holds=counts.rnn_steps_to_target == 7 and counts.attention_steps_total == 1,
        edge="the RNN total counts the steps up to 'it'; reading the whole sentence takes one step per word, "
        "while attention's single step covers every word",
        shown={
            "RNN steps up to 'it'": counts.rnn_steps_to_target,
            "RNN steps for the whole sentence": counts.rnn_steps_total,
            "words in the sentence": len(words),
            "attention steps for the whole sentence": counts.attention_steps_total,
        },
    )


@derives("parallel-it-scores-illustrative")
def parallel_it_scores_illustrative() -> Value:
    """Attention of 'it' to The, bank, approved, the, loan (made up)."""
    total = sum(printed.BANK_LOAN_IT_SCORES.values())
    return MadeUp(
        confirmed=total > 1,
        shown={"sum of the five printed values (softmax weights sum to 1 over all nine)": total},
    )


@derives("parallel-word-number-the")
def parallel_word_number_the() -> Value:
    """position of 'The'."""
    return recurrence.word_position(examples.BANK_LOAN_SENTENCE.split(), "The")


@derives("parallel-word-number-bank")
def parallel_word_number_bank() -> Value:
    """position of 'bank'."""
    return recurrence.word_position(examples.BANK_LOAN_SENTENCE.split(), "bank")


@derives("parallel-word-number-it")
def parallel_word_number_it() -> Value:
    """position of 'it'."""
    return recurrence.word_position(examples.BANK_LOAN_SENTENCE.split(), "it")


@derives("parallel-rnn-steps-to-it")
def parallel_rnn_steps_to_it() -> Value:
    """sequential RNN steps until the state of 'it' (hidden_state_7, 'ALL 7 words')."""
    return recurrence.path_counts(examples.BANK_LOAN_SENTENCE.split(), "bank", "it").rnn_steps_to_target


@derives("parallel-intermediate-states")
def parallel_intermediate_states() -> Value:
    """intermediate mixing steps (hidden states 3→4→5→6) between 'bank' and 'it'."""
    return len(
        recurrence.path_counts(examples.BANK_LOAN_SENTENCE.split(), "bank", "it").rnn_intermediate_states
    )
