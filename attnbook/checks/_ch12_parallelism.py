"""Checks of the rows in book/_data/errata/12_parallelism.yml, one function per row id."""

from __future__ import annotations

from attnlib import examples, scratch

from ._registry import Value, check


@check("parallel-rnn-total-steps")
def parallel_rnn_total_steps() -> Value:
    """sequential RNN steps for the sentence (the 'Total' set against attention's 1 ste."""
    return scratch.path_counts(examples.BANK_LOAN_SENTENCE.split(), "bank", "it").rnn_steps_total


@check("parallel-it-scores-illustrative")
def parallel_it_scores_illustrative() -> Value:
    """attention of 'it' to The, bank, approved, the, loan."""
    return sum(examples.BANK_LOAN_IT_SCORES.values()) > 1


@check("parallel-word-number-the")
def parallel_word_number_the() -> Value:
    """position of 'The'."""
    return scratch.word_position(examples.BANK_LOAN_SENTENCE.split(), "The")


@check("parallel-word-number-bank")
def parallel_word_number_bank() -> Value:
    """position of 'bank'."""
    return scratch.word_position(examples.BANK_LOAN_SENTENCE.split(), "bank")


@check("parallel-word-number-it")
def parallel_word_number_it() -> Value:
    """position of 'it'."""
    return scratch.word_position(examples.BANK_LOAN_SENTENCE.split(), "it")


@check("parallel-rnn-steps-to-it")
def parallel_rnn_steps_to_it() -> Value:
    """sequential RNN steps until the state of 'it' (hidden_state_7, 'ALL 7 words')."""
    return scratch.path_counts(examples.BANK_LOAN_SENTENCE.split(), "bank", "it").rnn_steps_to_target


@check("parallel-intermediate-states")
def parallel_intermediate_states() -> Value:
    """intermediate mixing steps (hidden states 3→4→5→6) between 'bank' and 'it'."""
    return len(scratch.path_counts(examples.BANK_LOAN_SENTENCE.split(), "bank", "it").rnn_intermediate_states)
