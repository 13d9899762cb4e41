"""A test agent: a plain function answering whole moves."""


def first(state):
    return state.legal_moves()[0]
