"""Everything players read: German and English texts, embeds, card buttons."""

from bot.render.texts import Lang, lang_of, t

__all__ = ["Lang", "lang_of", "t"]
