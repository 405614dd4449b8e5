"""Stopword profiles used by :mod:`faithguard.lexical.langid` (most frequent function words)."""

from __future__ import annotations

__all__ = ["STOPWORDS"]


def _ws(words: str) -> frozenset[str]:
    return frozenset(words.split())


#: script -> language code -> stopwords
STOPWORDS: dict[str, dict[str, frozenset[str]]] = {
    "LATIN": {
        "en": _ws(
            "it or the and of to a in is that for you was with on as are be this have not but "
            "they his her from by at we an will can all would there their what which when "
            "your if has been one so do more about"
        ),
        "es": _ws(
            "en es de el la que y los las del se por un una con no para al lo como más pero "
            "sus le ya o este sí porque esta entre cuando muy sin sobre también hay donde "
            "están"
        ),
        "pt": _ws(
            "de a as do que se por no para como o os e da dos das em um uma com não na nos "
            "nas mais mas ao ele ela é foi são também está seu sua muito já ou quando isso"
        ),
        "fr": _ws(
            "en de ne la que se un le mais ou les des du et une est qui dans pour pas sur au "
            "aux ce il elle plus par avec sont vous nous son sa ses où été cette être"
        ),
        "de": _ws(
            "es an das des der die und ist nicht ein eine zu den von mit sich auf für im dem "
            "auch als wie wir ich sie er aus bei oder nach werden wird sind hat noch über"
        ),
        "it": _ws(
            "si in la del un una con al lo le e da il i gli di che è per non della sono alla "
            "come ma più anche questo questa nel nella dei delle ha mi ti tra"
        ),
        "nl": _ws(
            "en de te in is die als er het een van dat op niet zijn voor met aan ook maar bij "
            "door wordt worden nog naar heeft dan uit wat"
        ),
        "pl": _ws(
            "to do o na i w nie z się że jest jak po co ale tak od za przez być jego jej "
            "które który która dla są czy tylko już może"
        ),
        "vi": _ws(
            "của và là có không những được các một cho trong người với này đã để khi cũng như "
            "thì đến từ sẽ về nhiều rất bạn tôi chúng họ"
        ),
        "sw": _ws("la ya na au za wa kwa ni katika cha hii kuwa yake vya pia lakini kama hiyo sana wao mimi yeye hapa"),
        "fi": _ws(
            "ja on se ei että oli hän mutta kun niin tämä ovat myös tai jos mitä joka kuin sen hänen minä sinä olla"
        ),
        "id": _ws(
            "di dan yang ke dari ini itu dengan untuk tidak dalam akan pada juga ada adalah "
            "oleh saya kami mereka bisa atau sudah"
        ),
        "tr": _ws("en de ne o da sen ve bir bu için ile çok daha gibi olarak var değil ama ben kadar sonra olan"),
        "sv": _ws("en vi den var och att det som är på för med av till har inte om ett jag men från eller kan"),
        "ro": _ws("de la un o este au ce și în cu pe care nu să din pentru mai sunt fost acest această"),
    },
    "CYRILLIC": {
        "ru": _ws("и в не на что я с он как это по но они все так его к из у за от мы вы было был она бы же то для"),
        "uk": _ws("в не на я по все так у за для і що з він як це але вони його до із від ми ви було був вона та є"),
        "bg": _ws("и в не на с как по но за от че аз той това те всички така ние вие беше бе тя да се е са"),
    },
    "ARABIC": {
        "ar": _ws("في من على إلى أن التي الذي هذا هذه عن مع كان هو هي لا ما ذلك كل قد بين"),
        "fa": _ws("و در به از که این را با است برای آن یک می تا هم شود بر شده ها"),
        "ur": _ws("کے کی میں ہے اور سے کو کا نے یہ ہیں پر بھی تھا کہ ایک"),
    },
    "DEVANAGARI": {
        "hi": _ws("है हैं का की के में और से को यह नहीं लिए पर भी था थे इस एक होता करने हम आप"),
        "mr": _ws("आहे आणि आहेत हे व या ला ने मी तो ती नाही करण्यासाठी त्या होते म्हणून"),
        "ne": _ws("छ र मा हो छन् पनि लागि गर्न यो भएको हुन्छ थियो गर्ने तथा हुने"),
    },
}
