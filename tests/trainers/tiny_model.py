"""A tiny causal LM built from a config, with a character-level tokenizer: no download.

(The libraries are imported inside the functions: the main suite collects this file too.)"""

from __future__ import annotations

from typing import Any

CHAT_TEMPLATE = (
    "{% for m in messages %}{{ m['role'] }}: {{ m['content'] }}\n{% endfor %}"
    "{% if add_generation_prompt %}assistant: {% endif %}"
)


def char_tokenizer() -> Any:
    """A ``PreTrainedTokenizerFast`` with one token per printable ASCII character."""
    from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    chars = [chr(code) for code in range(32, 127)] + ["\n", "\t"]
    vocab = {"<pad>": 0, "<eos>": 1, "<unk>": 2}
    vocab.update({char: index + 3 for index, char in enumerate(chars)})
    tokenizer = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    tokenizer.pre_tokenizer = pre_tokenizers.Split(Regex("[\\s\\S]"), behavior="isolated")
    tokenizer.decoder = decoders.Fuse()
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tokenizer, pad_token="<pad>", eos_token="<eos>", unk_token="<unk>"
    )
    fast.chat_template = CHAT_TEMPLATE
    fast.padding_side = "left"
    return fast


def tiny_model(tokenizer: Any, seed: int = 0) -> Any:
    """A one-layer Llama of about 17k parameters, initialised from ``seed``."""
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(seed)
    config = LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=1,
        num_attention_heads=2,
        num_key_value_heads=2,
        max_position_embeddings=4096,
        pad_token_id=tokenizer.pad_token_id,
        eos_token_id=tokenizer.eos_token_id,
        bos_token_id=tokenizer.eos_token_id,
    )
    return LlamaForCausalLM(config)
